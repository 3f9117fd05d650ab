import SystemKit

/// Where the daemon's log lines go, and how that is chosen.
///
/// - `--log-file PATH`: that file, in front and in the background.
/// - In front: stderr, or the journal when stderr is the journal (systemd sets
///   `JOURNAL_STREAM` to stderr's device and inode), so that priorities and fields survive.
/// - In the background: the journal when its socket exists, syslog otherwise.
enum LogSink: Sendable {
    case stderr
    case syslog
    case journal
    case file(LogFile)

    /// The journal's native socket; its presence means journald runs.
    static let journalSocket = "/run/systemd/journal/socket"

    static func choose(logFile: LogFile?, detached: Bool, variables: [String: String]) -> LogSink {
        if let logFile { return .file(logFile) }
        let journalRuns = FileSystem.isAllowed(.write, journalSocket)
        if detached { return journalRuns ? .journal : .syslog }
        return journalRuns && stderrIsJournal(variables["JOURNAL_STREAM"]) ? .journal : .stderr
    }

    /// Whether `JOURNAL_STREAM` ("DEVICE:INODE") names the stream that is our stderr
    /// (a child that inherited the variable but not the stream must not take it).
    static func stderrIsJournal(_ value: String?) -> Bool {
        guard let value else { return false }
        let parts = value.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1]) else { return false }
        guard let status = try? FileDescriptor.standardError.status() else { return false }
        return status.device == device && status.inode == inode
    }

    /// Prepares the sink once, before the first line.
    func open() {
        // The identifier defaults to the program's name; LOG_NDELAY connects now, while
        // /dev/log is still reachable.
        if case .syslog = self { SystemLog.open() }
    }

    func write(_ level: Logger.Level, _ message: String, fields: [Logger.Field]) {
        switch self {
        case .stderr:
            Output().err("photofs[\(CurrentProcess.id)] \(level.name): \(message)\n")
        case .syslog:
            SystemLog.write(level.priority, message)
        case .journal:
            Systemd.journal(
                [("MESSAGE", message), ("PRIORITY", String(level.priority.rawValue)), ("SYSLOG_IDENTIFIER", "photofs")]
                    + fields.map { ($0.name, $0.value) })
        case .file(let file):
            file.append("\(LogFile.timestamp()) photofs[\(CurrentProcess.id)] \(level.name): \(message)\n")
        }
    }
}
