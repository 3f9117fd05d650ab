import Glibc

/// The daemon's log: stderr in the foreground, syslog (journald) in the background,
/// filtered by `--log-level`. Callers never pass coordinates or file bytes.
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

        var syslogPriority: Int32 { [LOG_DEBUG, LOG_INFO, LOG_WARNING, LOG_ERR][rawValue] }

        static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    enum Sink: Sendable { case stderr, syslog }

    let level: Level
    let sink: Sink

    /// Opens syslog under the name `photofs` when logging there.
    init(level: Level, sink: Sink) {
        self.level = level
        self.sink = sink
        if sink == .syslog { openlog("photofs", LOG_PID, LOG_USER) }
    }

    func debug(_ message: @autoclosure () -> String) { log(.debug, message) }
    func info(_ message: @autoclosure () -> String) { log(.info, message) }
    func warning(_ message: @autoclosure () -> String) { log(.warning, message) }
    func error(_ message: @autoclosure () -> String) { log(.error, message) }

    private func log(_ at: Level, _ message: () -> String) {
        guard at >= level else { return }
        let text = message()
        switch sink {
        case .stderr: Output().err("photofs[\(getpid())] \(at.name): \(text)\n")
        case .syslog: withVaList([text]) { vsyslog(at.syslogPriority, "%s", $0) }
        }
    }
}
