import PhotoCore

/// One walk of the whole library (every file's size, mtime, inode and ctime, every folder), made
/// apart from an index run so that a mount can walk while it loads the catalog, and index
/// only when the walk shows that something is new.
public struct LibraryScan: Sendable {
    let walk: WalkResult

    /// Every folder walked, the root ("") first.
    public var folders: [LibraryPath] { walk.folders }

    /// The number of regular files found.
    public var fileCount: Int { walk.files.count }
}

extension LibraryScan {
    /// Walks the whole library at `library` (an absolute path) without reading any file
    /// and without a catalog: for walking while the catalog is still being made.
    public static func walk(library: [UInt8]) throws(IndexError) -> LibraryScan {
        do {
            return LibraryScan(walk: try LibraryWalker.walk(root: library, scope: .everything))
        } catch {
            throw .library(error)
        }
    }
}

extension Indexer {
    /// Walks the whole library without reading any file. `entering` is called with each
    /// folder just before its entries are read: a watch added there (see
    /// `LibraryWatcher.watch`) sees every change that this scan may have missed.
    public func scan(entering: ((LibraryPath) -> Void)? = nil) throws(IndexError) -> LibraryScan {
        do {
            return LibraryScan(walk: try LibraryWalker.walk(root: library, scope: .everything, entering: entering))
        } catch {
            throw .library(error)
        }
    }

    /// Whether an index run over `scan` would change anything, judged against `snapshot`
    /// (read from this catalog) and the catalog's failures: false only when every file (links
    /// and other special files included) has an asset or a failure with the same size, mtime,
    /// inode and ctime, every catalogued asset and failure was found, and no folder was
    /// unreadable. The cheap check a mount makes before it serves an already-indexed library;
    /// `run(scan:)` does the work otherwise.
    ///
    /// The snapshot's assets are found by path through a table of their positions
    /// (`PathPositions`: 4 bytes a slot, twice as many slots as assets), built in one pass:
    /// no sort of every path at every mount, and no second copy of any path.
    public func needsRun(_ scan: LibraryScan, snapshot: LibrarySnapshot) throws(IndexError) -> Bool {
        let walk = scan.walk
        guard walk.unreadableFolders.isEmpty else { return true }
        let failures: [LibraryPath: FileStat]
        do {
            failures = try catalog.failureStates()
        } catch {
            throw .catalog(error)
        }
        let assets = snapshot.assets
        // Paths are unique on both sides: with every walked file matched, equal counts mean
        // that every catalogued asset and failure was found too.
        guard walk.files.count + walk.special.count == assets.count + failures.count else { return true }
        let positions = PathPositions(of: assets)
        var assetsMatched = 0
        var failuresMatched = 0
        for file in walk.files {
            if let position = positions.position(of: file.path, in: assets) {
                // Fields read in place: copying a whole asset retains each of its parts.
                let stored = FileStat(
                    size: assets[position].size, mtimeNanoseconds: assets[position].mtimeNanoseconds, inode: assets[position].inode,
                    ctimeNanoseconds: assets[position].ctimeNanoseconds)
                guard stored == file.stat else { return true }
                assetsMatched += 1
            } else if !failures.isEmpty, failures[file.path] == file.stat {
                failuresMatched += 1
            } else {
                return true
            }
        }
        for (file, _) in walk.special {
            guard failures[file.path] == file.stat else { return true }
            failuresMatched += 1
        }
        return assetsMatched != assets.count || failuresMatched != failures.count
    }
}

/// The positions of a list of assets by path: an open-addressing table of positions
/// (`Int32`, -1 for an empty slot) at least twice as long as the list, probed linearly from
/// the path's hash; the paths themselves stay in the assets (8 MB for a million assets).
struct PathPositions {
    private var slots: [Int32]
    private let mask: Int

    init(of assets: ChunkedArray<Asset>) {
        var size = 16
        while size < assets.count * 2 { size <<= 1 }
        mask = size - 1
        slots = [Int32](repeating: -1, count: size)
        for position in assets.indices {
            var slot = Self.hash(assets[position].path) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(truncatingIfNeeded: position)
        }
    }

    /// The position in `assets` (the list this table was built from) of the asset at `path`.
    func position(of path: LibraryPath, in assets: ChunkedArray<Asset>) -> Int? {
        var slot = Self.hash(path) & mask
        while slots[slot] >= 0 {
            let position = Int(slots[slot])
            if assets[position].path == path { return position }
            slot = (slot + 1) & mask
        }
        return nil
    }

    private static func hash(_ path: LibraryPath) -> Int {
        var hasher = Hasher()
        path.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}
