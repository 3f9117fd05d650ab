import Glibc

/// A `--log-file`: opened once for appending (created 0600: a log names apps and paths),
/// written a whole line per `write(2)` so lines of several threads never interleave.
final class LogFile: Sendable {
    let path: String
    private let fd: Int32

    enum OpenError: Error { case failed(path: String, errno: Int32) }

    init(path: String) throws(OpenError) {
        let fd = Glibc.open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw .failed(path: path, errno: errno) }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    func append(_ line: String) {
        var bytes = Array(line.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }

    /// The current UTC time as `2024-06-15T10:30:00Z`.
    static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
