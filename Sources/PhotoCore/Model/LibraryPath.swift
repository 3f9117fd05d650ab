import SystemKit

/// A path relative to the library root, kept as raw bytes.
///
/// Linux file names are bytes, not text: a name may hold newlines or bytes that are not
/// UTF-8. The bytes travel unchanged from `readdir` to the catalog to the FUSE views;
/// `display` is only for people.
///
/// Held as a span of a shared byte buffer (14 bytes inline, no allocation of its own): the
/// catalog's million paths are read into a few hundred buffers of `PathArena`, not one
/// array each (an array cost about 80 bytes of heap and a `malloc` per path).
public struct LibraryPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The buffer that holds the bytes (shared with other paths, never changed where a path points).
    @usableFromInline let storage: PathStorage
    /// Where the bytes start in `storage`.
    @usableFromInline let start: UInt32
    /// The byte count, or `UInt16.max` for a path that long or longer, which has a buffer
    /// of its own (`storage.capacity` bytes from 0).
    @usableFromInline let shortCount: UInt16

    init(storage: PathStorage, start: Int, count: Int) {
        if count >= Int(UInt16.max) {
            precondition(start == 0 && count == storage.capacity, "a long path has a buffer of its own")
            self.shortCount = UInt16.max
        } else {
            self.shortCount = UInt16(count)
        }
        self.storage = storage
        self.start = UInt32(start)
    }

    /// A path of `bytes`, in a buffer of its own.
    public init(bytes: some Collection<UInt8>) {
        let storage = PathStorage.make(capacity: bytes.count)
        storage.withBytes { base in _ = UnsafeMutableBufferPointer(start: base, count: bytes.count).initialize(from: bytes) }
        self.init(storage: storage, start: 0, count: bytes.count)
    }

    public init(_ text: String) { self.init(bytes: text.utf8) }

    /// The number of bytes.
    @inlinable
    public var count: Int { shortCount == UInt16.max ? storage.capacity : Int(shortCount) }

    public var isEmpty: Bool { shortCount == 0 }

    /// Calls `body` with the path's bytes, in place (valid only during the call).
    @inlinable
    public func withBytes<R, E: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try storage.withBytes { (base: UnsafeMutablePointer<UInt8>) throws(E) -> R in
            try body(UnsafeBufferPointer(start: base + Int(start), count: count))
        }
    }

    /// The path's bytes, components separated by `/`, no leading or trailing slash. A new
    /// array at each use: hot paths read them in place (`withBytes`).
    public var bytes: [UInt8] { withBytes { Array($0) } }

    /// The components (file and folder names), each as bytes.
    public var components: [[UInt8]] {
        withBytes { $0.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true).map(Array.init) }
    }

    /// Whether the path names something below the library root: not empty, not absolute,
    /// no `..` component. Checked without allocating (it guards every READ).
    public var staysInsideLibrary: Bool { withBytes { SourceOpener.staysInsideLibrary($0) } }

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
    public var display: String { withBytes { String(decoding: $0, as: UTF8.self) } }

    public var description: String { display }

    /// Joins a child name (bytes) below this path, in a buffer of its own.
    public func appending(_ name: [UInt8]) -> LibraryPath {
        var arena = PathArena(chunkBytes: 0)
        return name.withUnsafeBufferPointer { arena.path(self, appending: $0) }
    }

    /// Hashes the bytes in one call rather than one byte at a time (paths key the
    /// indexer's and the views' tables of a million entries).
    public func hash(into hasher: inout Hasher) {
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        hasher.combine(count)
    }

    public static func == (lhs: LibraryPath, rhs: LibraryPath) -> Bool {
        if lhs.storage === rhs.storage, lhs.start == rhs.start, lhs.shortCount == rhs.shortCount { return true }
        return lhs.count == rhs.count && order(lhs, rhs) == 0
    }

    /// Byte by byte, a prefix first: the order of SQLite's BLOB comparison (memcmp).
    public static func < (lhs: LibraryPath, rhs: LibraryPath) -> Bool { order(lhs, rhs) < 0 }

    /// Negative, zero or positive as `lhs` sorts before, with or after `rhs`.
    static func order(_ lhs: LibraryPath, _ rhs: LibraryPath) -> Int {
        lhs.withBytes { a in rhs.withBytes { b in Self.order(a, b) } }
    }

    /// `order` for two byte buffers.
    public static func order(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Int {
        let common = min(a.count, b.count)
        let order = common == 0 ? 0 : MemoryOrder.compare(a.baseAddress!, b.baseAddress!, count: common)
        return order != 0 ? order : a.count - b.count
    }
}

/// One buffer of path bytes that `LibraryPath`s point into. Bytes are written once, by the
/// `PathArena` filling it, before any path points at them, and never changed after; a path
/// keeps its buffer alive.
@usableFromInline
final class PathStorage: @unchecked Sendable {
    @usableFromInline let base: UnsafeMutablePointer<UInt8>
    /// The bytes this buffer was made for.
    @usableFromInline let capacity: Int

    private init(capacity: Int) {
        self.capacity = capacity
        base = UnsafeMutablePointer.allocate(capacity: max(capacity, 1))
    }

    deinit { base.deallocate() }

    /// A buffer of exactly `capacity` bytes.
    static func make(capacity: Int) -> PathStorage { PathStorage(capacity: capacity) }

    /// Calls `body` with the buffer's first byte (valid only during the call).
    @inlinable
    func withBytes<R, E: Error>(_ body: (UnsafeMutablePointer<UInt8>) throws(E) -> R) throws(E) -> R {
        try withExtendedLifetime(self) { () throws(E) -> R in try body(base) }
    }
}
