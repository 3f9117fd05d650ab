import SystemKit

/// A `--log-file`: opened once for appending (created 0600: a log names apps and paths),
/// written a whole line per `write(2)` so lines of several threads never interleave.
final class LogFile: Sendable {
    let path: String
    private let descriptor: FileDescriptor

    enum OpenError: Error { case failed(path: String, Errno) }

    init(path: String) throws(OpenError) {
        do throws(Errno) {
            descriptor = try FileDescriptor.open(path, [.writeOnly, .append, .create], mode: 0o600)
        } catch {
            throw .failed(path: path, error)
        }
        self.path = path
    }

    deinit { descriptor.close() }

    func append(_ line: String) {
        // One write, never split: a short write loses the rest rather than interleave.
        _ = try? descriptor.write(Array(line.utf8))
    }

    /// The current UTC time as `2024-06-15T10:30:00Z`.
    static func timestamp() -> String { CalendarTime.utcTimestamp(SystemClock.wallSeconds()) }
}
