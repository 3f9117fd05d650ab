/// A path relative to the library root, kept as raw bytes.
///
/// Linux file names are bytes, not text: a name may hold newlines or bytes that are not
/// UTF-8. The bytes travel unchanged from `readdir` to the catalog to the FUSE views;
/// `display` is only for people.
public struct LibraryPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The path's bytes, components separated by `/`, no leading or trailing slash.
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public init(_ text: String) { self.bytes = Array(text.utf8) }

    /// The components (file and folder names), each as bytes.
    public var components: [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init)
    }

    /// Whether the path names something below the library root: not empty, not absolute,
    /// no `..` component. Checked without allocating (it guards every READ).
    public var staysInsideLibrary: Bool {
        guard let first = bytes.first, first != UInt8(ascii: "/") else { return false }
        var componentStart = 0
        for index in 0...bytes.count {
            guard index == bytes.count || bytes[index] == UInt8(ascii: "/") else { continue }
            if index - componentStart == 2, bytes[componentStart] == UInt8(ascii: "."), bytes[componentStart + 1] == UInt8(ascii: ".") {
                return false
            }
            componentStart = index + 1
        }
        return true
    }

    /// The last component: the file name.
    public var fileName: [UInt8] { components.last ?? [] }

    /// The folder that holds the file, relative to the library root (empty at the root).
    public var folder: LibraryPath {
        LibraryPath(bytes: Array(components.dropLast().joined(separator: [UInt8(ascii: "/")])))
    }

    /// The lower-cased extension of the file name without the dot, or "" when none.
    public var fileExtension: String {
        let name = fileName
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return "" }
        return String(decoding: name[(dot + 1)...], as: UTF8.self).lowercased()
    }

    /// The path as text; bytes that are not UTF-8 become U+FFFD. Never feed it back to the file system.
    public var display: String { String(decoding: bytes, as: UTF8.self) }

    public var description: String { display }

    /// Joins a child name (bytes) below this path.
    public func appending(_ name: [UInt8]) -> LibraryPath {
        if bytes.isEmpty { return LibraryPath(bytes: name) }
        var joined: [UInt8] = []
        joined.reserveCapacity(bytes.count + 1 + name.count)
        joined += bytes
        joined.append(UInt8(ascii: "/"))
        joined += name
        return LibraryPath(bytes: joined)
    }

    /// Hashes the bytes in one call rather than one byte at a time (paths key the
    /// indexer's and the views' tables of 100,000 entries).
    public func hash(into hasher: inout Hasher) {
        bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
        hasher.combine(bytes.count)
    }

    public static func == (lhs: LibraryPath, rhs: LibraryPath) -> Bool { lhs.bytes == rhs.bytes }

    public static func < (lhs: LibraryPath, rhs: LibraryPath) -> Bool { lhs.bytes.lexicographicallyPrecedes(rhs.bytes) }
}
