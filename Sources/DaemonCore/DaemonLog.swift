/// Where the core's services say what they did: the daemon's log, filtered and written by
/// the executable (`--log-level`, the journal). A line about one app names it, so that the
/// journal can keep it as a field. Callers never pass coordinates or file bytes.
public struct DaemonLog: Sendable {
    /// How much a line matters, lowest first.
    public enum Level: Sendable {
        case debug, info, warning, error
    }

    private let write: @Sendable (_ level: Level, _ message: () -> String, _ apps: [String]) -> Void

    /// A log that hands each line to `write`, which builds the message only if it keeps it.
    public init(_ write: @escaping @Sendable (_ level: Level, _ message: () -> String, _ apps: [String]) -> Void) {
        self.write = write
    }

    /// A log that keeps nothing.
    public static let discarding = DaemonLog { _, _, _ in }

    public func debug(_ message: @autoclosure () -> String) { write(.debug, message, []) }
    public func info(_ message: @autoclosure () -> String, apps: [String] = []) { write(.info, message, apps) }
    public func warning(_ message: @autoclosure () -> String) { write(.warning, message, []) }
    public func error(_ message: @autoclosure () -> String) { write(.error, message, []) }
}
