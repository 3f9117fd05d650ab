import SystemKit

/// The photofs mounts the kernel knows, read from `/proc/self/mountinfo`: used by
/// `status`, `unmount` and `mount` (to refuse mounting twice), and every client that
/// asks whether a library is mounted.
public struct MountTable: Sendable {
    /// One `fuse.photofs` mount.
    public struct Entry: Equatable, Sendable {
        /// The library as given in the mount's source (`fsname`).
        public let library: String
        public let mountpoint: String
    }

    public let entries: [Entry]

    /// Reads the current table (empty when /proc is not mounted).
    public static func current() -> MountTable {
        MountTable(parsing: readFile("/proc/self/mountinfo"))
    }

    /// Parses mountinfo text: fields 5 (mountpoint), then after ` - `: type and source.
    public init(parsing text: String) {
        var entries: [Entry] = []
        for line in text.split(separator: "\n") {
            let halves = line.components(separatedBy: " - ")
            guard halves.count >= 2 else { continue }
            let left = halves[0].split(separator: " ")
            let right = halves[1].split(separator: " ")
            guard left.count >= 5, right.count >= 2, right[0] == "fuse.photofs" else { continue }
            entries.append(Entry(library: Self.unescape(String(right[1])), mountpoint: Self.unescape(String(left[4]))))
        }
        self.entries = entries
    }

    /// The mount at `mountpoint` (compared as given and as a real path), if any.
    public func entry(at mountpoint: String) -> Entry? {
        let real = Self.realPath(mountpoint) ?? mountpoint
        return entries.first { $0.mountpoint == mountpoint || $0.mountpoint == real }
    }

    /// The mount of `library` (compared as real paths), if one is active.
    public func mountpoint(ofLibrary library: String) -> String? {
        let real = Self.realPath(library) ?? library
        return entries.first { (Self.realPath($0.library) ?? $0.library) == real }?.mountpoint
    }

    /// `path` with every symbolic link and `.`/`..` resolved, or nil when it cannot be.
    public static func realPath(_ path: String) -> String? {
        FileSystem.realPath(Array(path.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    /// Undoes the kernel's octal escapes (`\040` for a space, `\012` for a newline, `\134` for `\`).
    public static func unescape(_ text: String) -> String {
        var bytes: [UInt8] = []
        let source = Array(text.utf8)
        var index = 0
        while index < source.count {
            if source[index] == UInt8(ascii: "\\"), index + 3 < source.count,
                let value = UInt8(String(decoding: source[(index + 1)...(index + 3)], as: UTF8.self), radix: 8)
            {
                bytes.append(value)
                index += 4
            } else {
                bytes.append(source[index])
                index += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func readFile(_ path: String) -> String {
        guard let descriptor = try? FileDescriptor.open(path, .readOnly) else { return "" }
        defer { descriptor.close() }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = (try? descriptor.read(into: &buffer)) ?? 0
            if count <= 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
