import Glibc
import PhotoCore

/// The pending requests of a mounted library, as its `.requests` file lists them, and the
/// owner's answers written back to it.
struct PendingRequest: Sendable {
    var id: Int
    var app: String
    /// The narrowed limit; nil when unlimited.
    var limit: Int?
    var mode: PickRequest.Mode
    var ordered: Bool
    var media: MediaSelector?
    var waited: Int
    var expiresIn: Int

    /// Parses one line (`id=3 app=editor limit=3 mode=add ...`); nil when malformed.
    init?(line: Substring) {
        var fields: [String: String] = [:]
        for item in line.split(separator: " ") {
            guard let equals = item.firstIndex(of: "=") else { return nil }
            fields[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        guard let id = fields["id"].flatMap({ Int($0) }), let app = fields["app"],
            let mode = fields["mode"].flatMap({ PickRequest.Mode(rawValue: $0) })
        else { return nil }
        self.id = id
        self.app = app
        self.limit = fields["limit"].flatMap { Int($0) }
        self.mode = mode
        self.ordered = fields["ordered"] != "no"
        self.media = fields["media"].flatMap { try? PickRequestParser.parse("media=" + $0).media }
        self.waited = fields["waited"].flatMap { Int($0) } ?? 0
        self.expiresIn = fields["expires-in"].flatMap { Int($0) } ?? 0
    }

    /// The pending requests of the mount at `mountpoint` (empty when it has none or no such file).
    static func list(mountpoint: String) -> [PendingRequest] {
        let fd = open(mountpoint + "/.requests", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes += buffer[..<count]
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: "\n").compactMap { PendingRequest(line: $0) }
    }

    /// Writes one answer line to `.requests`; the errno when refused.
    static func answer(_ line: String, mountpoint: String) -> Int32? {
        let fd = open(mountpoint + "/.requests", O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let bytes = Array((line + "\n").utf8)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return written == bytes.count ? nil : (written < 0 ? errno : EIO)
    }
}
