import SystemKit

/// Writes to stdout and stderr without Foundation buffering surprises; the one place
/// the CLI prints from.
struct Output: Sendable {
    func out(_ text: String) { write(.standardOutput, text) }

    func err(_ text: String) { write(.standardError, text) }

    /// Prints a line to stdout.
    func line(_ text: String = "") { out(text + "\n") }

    /// Prints `photofs: message` to stderr.
    func error(_ message: String) { err("photofs: \(message)\n") }

    /// Writes all of `text`; a failed write (a closed stdout) drops the rest.
    private func write(_ descriptor: FileDescriptor, _ text: String) {
        try? descriptor.writeAll(Array(text.utf8))
    }
}
