import SystemKit

/// The daemon's log, filtered by `--log-level`, written to one `LogSink` (the journal,
/// syslog, stderr or a `--log-file`). Callers never pass coordinates or file bytes.
struct Logger: Sendable {
    enum Level: Int, Sendable, Comparable, CaseIterable {
        case debug, info, warning, error

        init?(name: String) {
            switch name.lowercased() {
            case "debug": self = .debug
            case "info": self = .info
            case "warning", "warn": self = .warning
            case "error": self = .error
            default: return nil
            }
        }

        var name: String { ["debug", "info", "warning", "error"][rawValue] }

        /// The syslog(3) severity, which the journal's PRIORITY field also uses.
        var priority: SystemLog.Priority { [.debug, .info, .warning, .error][rawValue] }

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    /// One structured journal field (`PHOTOFS_APP=editor`); only the journal keeps them.
    struct Field: Sendable, Equatable {
        let name: String
        let value: String

        /// The app a line is about.
        static func app(_ name: String) -> Field { Field(name: "PHOTOFS_APP", value: name) }
        static func mountpoint(_ path: String) -> Field { Field(name: "PHOTOFS_MOUNTPOINT", value: path) }
    }

    let level: Level
    let sink: LogSink
    /// Fields every line carries (the mountpoint).
    let fields: [Field]

    init(level: Level, sink: LogSink, fields: [Field] = []) {
        self.level = level
        self.sink = sink
        self.fields = fields
        sink.open()
    }

    func debug(_ message: @autoclosure () -> String, fields: [Field] = []) { log(.debug, message, fields) }
    func info(_ message: @autoclosure () -> String, fields: [Field] = []) { log(.info, message, fields) }
    func warning(_ message: @autoclosure () -> String, fields: [Field] = []) { log(.warning, message, fields) }
    func error(_ message: @autoclosure () -> String, fields: [Field] = []) { log(.error, message, fields) }

    private func log(_ at: Level, _ message: () -> String, _ extra: [Field]) {
        guard at >= level else { return }
        sink.write(at, message(), fields: fields + extra)
    }
}

extension Logger {
    /// The daemon's logger as `photofs mount` options ask: `--log-level`, `--log-file`,
    /// in front or detached (`LogSink.choose`); every line carries the mountpoint.
    static func daemon(arguments: ParsedArguments, environment: Environment, mountpoint: String) throws(CLIError) -> Logger {
        let level = arguments.value("log-level").flatMap { Level(name: $0) } ?? .info
        let file = try arguments.value("log-file").map { path throws(CLIError) in try openLogFile(path) }
        let sink = LogSink.choose(logFile: file, detached: arguments.flag("detach"), variables: environment.variables)
        return Logger(level: level, sink: sink, fields: [.mountpoint(MountChecks.realPath(mountpoint) ?? mountpoint)])
    }

    /// Opens (creates) a `--log-file`, or says why it cannot.
    static func openLogFile(_ path: String) throws(CLIError) -> LogFile {
        do throws(LogFile.OpenError) {
            return try LogFile(path: path)
        } catch {
            switch error {
            case .failed(_, let code): throw .failure("cannot open the log file \(path): \(code).")
            }
        }
    }
}
