import Glibc

/// The system log (`syslog(3)`), for a daemon without journald, and the severities the
/// journal's PRIORITY field uses too.
public enum SystemLog {
    /// A syslog severity.
    public struct Priority: Sendable, Equatable {
        public let rawValue: Int32

        public static let debug = Priority(rawValue: LOG_DEBUG)
        public static let info = Priority(rawValue: LOG_INFO)
        public static let warning = Priority(rawValue: LOG_WARNING)
        public static let error = Priority(rawValue: LOG_ERR)
    }

    /// Connects now (while /dev/log is reachable), as a daemon, each line carrying the pid;
    /// the identifier is the program's name.
    public static func open() { openlog(nil, LOG_PID | LOG_NDELAY, LOG_DAEMON) }

    /// Writes `message` as is (a '%' in it is not read as a format).
    public static func write(_ priority: Priority, _ message: String) {
        // The message is the argument of "%s": a Swift String is not a C vararg.
        message.withCString { text in
            withVaList([text]) { vsyslog(priority.rawValue, "%s", $0) }
        }
    }
}
