import Glibc

/// Writes to stdout and stderr without Foundation buffering surprises; the one place
/// the CLI prints from.
struct Output: Sendable {
    func out(_ text: String) { write(1, text) }

    func err(_ text: String) { write(2, text) }

    /// Prints a line to stdout.
    func line(_ text: String = "") { out(text + "\n") }

    /// Prints `photofs: message` to stderr.
    func error(_ message: String) { err("photofs: \(message)\n") }

    private func write(_ fd: Int32, _ text: String) {
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
