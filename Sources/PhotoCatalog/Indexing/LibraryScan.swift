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
    /// The walk is in path order, and so are the snapshot's assets once put in it (they
    /// usually are already): one merge compares each path once, with no table of every path.
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
        let order = Self.pathOrder(of: assets)
        var next = 0
        var failuresMatched = 0
        for file in walk.files {
            let position = next < assets.count ? order?[next] ?? next : 0
            if next < assets.count, assets[position].path == file.path {
                // Fields read in place: copying a whole asset retains each of its parts.
                let stored = FileStat(
                    size: assets[position].size, mtimeNanoseconds: assets[position].mtimeNanoseconds, inode: assets[position].inode,
                    ctimeNanoseconds: assets[position].ctimeNanoseconds)
                guard stored == file.stat else { return true }
                next += 1
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
        return next != assets.count || failuresMatched != failures.count
    }

    /// Positions of `assets` in path order, or nil when they are in path order already.
    static func pathOrder(of assets: ChunkedArray<Asset>) -> [Int]? {
        var sorted = true
        for position in assets.indices.dropFirst() where !(assets[position - 1].path < assets[position].path) {
            sorted = false
            break
        }
        if sorted { return nil }
        return assets.indices.sorted { assets[$0].path < assets[$1].path }
    }
}
