import Glibc

/// The control file as a user program drives it: one `write(2)` per call on a fresh
/// `O_RDWR|O_TRUNC` open. A refusal is its errno alone (the reason comes over the picker
/// socket, `PickerSocket`).
enum PickerFile {
    /// The result of one write: errno 0 on success, else the errno (and, over the socket,
    /// the reason line).
    struct Outcome: Equatable, CustomStringConvertible {
        let errno: Int32
        let reason: String

        var succeeded: Bool { errno == 0 }
        var description: String { errno == 0 ? "ok" : "\(String(cString: strerror(errno))) (\(errno)): \(reason)" }
    }

    /// Writes `text` to `MOUNTPOINT/.picker` in one `write(2)`.
    static func write(_ mountpoint: String, _ text: String) -> Outcome {
        let fd = open(mountpoint + "/.picker", O_RDWR | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { return Outcome(errno: errno, reason: "open failed") }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
        if written == bytes.count { return Outcome(errno: 0, reason: "") }
        return Outcome(errno: written < 0 ? errno : EIO, reason: "")
    }

    /// What a fresh open of `.picker` reads: the rendered apps and selections.
    static func read(_ mountpoint: String) -> String {
        let fd = open(mountpoint + "/.picker", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        return String(decoding: readAll(fd), as: UTF8.self)
    }

    /// The asset ids `.picker` renders as granted to `app`, in order: visible ones as
    /// `select APP ID  # path`, hidden ones (filter, missing file) as `# select APP ID  # ...`.
    static func selection(_ mountpoint: String, app: String, visibleOnly: Bool = false) -> [String] {
        selection(in: read(mountpoint), app: app, visibleOnly: visibleOnly)
    }

    static func selection(in text: String, app: String, visibleOnly: Bool = false) -> [String] {
        text.split(separator: "\n").compactMap { line in
            var words = line.split(separator: " ", omittingEmptySubsequences: true)
            if !visibleOnly, words.first == "#" { words.removeFirst() }
            guard words.count >= 3, words[0] == "select", words[1] == app else { return nil }
            return String(words[2])
        }
    }

    /// Reads a descriptor from offset 0 to its end with `pread`.
    static func readAll(_ fd: Int32) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, $0.count, off_t(result.count)) }
            if count <= 0 { return result }
            result += buffer[0..<count]
        }
    }
}

/// A target quoted for the picker language (single quotes; a quote inside closes, escapes, reopens).
func quoted(_ target: String) -> String {
    "'" + target.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
}
