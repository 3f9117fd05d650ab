/// Makes many `LibraryPath`s by copying their bytes one after another into shared buffers
/// (`PathStorage`), so that a million paths cost a few hundred allocations and no more
/// than their bytes. A path longer than a buffer gets a buffer of its own.
///
/// A buffer stays alive while any path points into it: fill an arena with paths that live
/// about as long as each other (one catalog read, one walk).
public struct PathArena {
    /// Bytes per buffer (0: every path gets a buffer of its own).
    public let chunkBytes: Int
    private var storage: PathStorage?
    private var used = 0

    /// An arena of `chunkBytes`-byte buffers (64 KiB: a few thousand paths each).
    public init(chunkBytes: Int = 64 * 1024) {
        self.chunkBytes = chunkBytes
    }

    /// A path of `bytes`.
    public mutating func path(_ bytes: UnsafeBufferPointer<UInt8>) -> LibraryPath {
        let (storage, start) = reserve(bytes.count)
        storage.withBytes { base in
            if let source = bytes.baseAddress { (base + start).update(from: source, count: bytes.count) }
        }
        return LibraryPath(storage: storage, start: start, count: bytes.count)
    }

    /// The path `folder/name` (just `name` when `folder` is empty).
    public mutating func path(_ folder: LibraryPath, appending name: UnsafeBufferPointer<UInt8>) -> LibraryPath {
        let separator = folder.isEmpty ? 0 : 1
        let count = folder.count + separator + name.count
        let (storage, start) = reserve(count)
        storage.withBytes { base in
            folder.withBytes { bytes in
                if let source = bytes.baseAddress { (base + start).update(from: source, count: bytes.count) }
            }
            if separator == 1 { base[start + folder.count] = UInt8(ascii: "/") }
            if let source = name.baseAddress { (base + start + folder.count + separator).update(from: source, count: name.count) }
        }
        return LibraryPath(storage: storage, start: start, count: count)
    }

    /// Room for `count` bytes: the buffer and where they go in it.
    private mutating func reserve(_ count: Int) -> (PathStorage, Int) {
        if count >= Int(UInt16.max) || count > chunkBytes / 4 {
            return (PathStorage.make(capacity: count), 0)
        }
        if let storage, used + count <= storage.capacity {
            defer { used += count }
            return (storage, used)
        }
        let fresh = PathStorage.make(capacity: chunkBytes)
        storage = fresh
        used = count
        return (fresh, 0)
    }
}
