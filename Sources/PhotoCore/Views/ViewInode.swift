/// How inode numbers are made: fixed small numbers for the fixed nodes, the view and the
/// asset id for the files of the library views (`libraryFile`), a 63-bit hash of (node
/// kind, view directory path, asset id) for everything else, so that a node keeps its
/// number across snapshots and across restarts and the kernel's caches stay coherent.
public enum ViewInode {
    /// The root directory (FUSE's root id).
    public static let root: UInt64 = 1
    public static let picker: UInt64 = 2
    public static let library: UInt64 = 3
    public static let all: UInt64 = 4
    public static let byDate: UInt64 = 5
    public static let byCamera: UInt64 = 6
    public static let folders: UInt64 = 7
    public static let apps: UInt64 = 8
    /// Numbers below this are reserved for fixed nodes (1-8 above, 9 the owner's `.requests`,
    /// 768-1023 the renderings of `.picker`); hashed numbers never fall below it.
    public static let firstDerived: UInt64 = 1024

    /// The bit that every library file's number has and no other number has (hashed numbers
    /// clear it), so the two ranges never meet.
    static let libraryFileBit: UInt64 = 1 << 63

    /// The number of the file that shows `asset` in a directory of library view `view`:
    /// the bit, the view and the id's 48-bit number, so the number says which view and
    /// asset it is (an asset has one file per library view).
    static func libraryFile(view: LibraryView, asset: AssetID) -> UInt64 {
        libraryFileBit | UInt64(view.rawValue) << 48 | asset.number
    }

    /// The view and asset a library file's number stands for; nil for any other number.
    static func libraryFile(_ inode: UInt64) -> (view: LibraryView, asset: AssetID)? {
        guard inode & libraryFileBit != 0, let view = LibraryView(rawValue: UInt8(truncatingIfNeeded: inode >> 48 & 0x7FFF)),
            inode >> 48 & 0x7FFF == UInt64(view.rawValue), let asset = AssetID(number: inode & 0xFFFF_FFFF_FFFF)
        else { return nil }
        return (view, asset)
    }

    /// The derived number for a directory at a view path (e.g. `library/by-date/2024`).
    static func directory(path: [UInt8]) -> UInt64 {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "d"))
        hash.add(path)
        return hash.inode
    }

    /// The derived number for one asset in the view directory at `directoryPath`.
    static func file(directoryPath: [UInt8], asset: AssetID) -> UInt64 {
        file(in: filePrefix(directoryPath: directoryPath), asset: asset)
    }

    /// The hash state after a directory's part of its files' keys: computed once per
    /// directory, continued per asset by `file(in:asset:)`.
    static func filePrefix(directoryPath: [UInt8]) -> FNV1a {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "f"))
        hash.add(directoryPath)
        hash.add(0)
        return hash
    }

    static func file(in prefix: FNV1a, asset: AssetID) -> UInt64 {
        var hash = prefix
        for byte in asset.rawValue.utf8 { hash.add(byte) }
        return hash.inode
    }
}

/// 64-bit FNV-1a with a final avalanche mix: deterministic across processes, unlike
/// Swift's seeded `Hasher`.
struct FNV1a {
    private var state: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func add(_ byte: UInt8) {
        state = (state ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }

    mutating func add(_ bytes: [UInt8]) {
        for byte in bytes { add(byte) }
    }

    /// The mixed value, moved out of the reserved range and out of the library files' range.
    var inode: UInt64 {
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        z &= ~ViewInode.libraryFileBit
        return z < ViewInode.firstDerived ? z &+ ViewInode.firstDerived : z
    }
}
