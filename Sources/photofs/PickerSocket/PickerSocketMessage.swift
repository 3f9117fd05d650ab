/// The picker socket's protocol: the client sends the bytes of one write (the picker
/// language, as to `.picker`) and shuts its side down; the daemon runs them as one
/// transaction and answers once, `ok` or `error ERRNO` and the one-line reason:
///
///     ok\n
///     error 1\nline 2: IMG_0001.jpg does not pass editor's filter\n
enum PickerSocketMessage {
    /// The most bytes one request may carry.
    static let maximumRequest = 64 << 20

    /// The reply for an outcome: `errno` 0 is success.
    static func reply(errno: Int32, reason: String) -> [UInt8] {
        guard errno != 0 else { return Array("ok\n".utf8) }
        let line = reason.split(separator: "\n", omittingEmptySubsequences: true).joined(separator: " ")
        return Array("error \(errno)\n\(line)\n".utf8)
    }

    /// The errno and reason of a reply (errno 0: success); nil when it is not a reply.
    static func parse(_ bytes: [UInt8]) -> (errno: Int32, reason: String)? {
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "ok\n" { return (0, "") }
        let lines = text.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)
        guard lines.count == 2, lines[0].hasPrefix("error "), let code = Int32(lines[0].dropFirst(6)), code > 0 else { return nil }
        var reason = String(lines[1])
        while reason.last == "\n" { reason.removeLast() }
        return (code, reason)
    }
}
