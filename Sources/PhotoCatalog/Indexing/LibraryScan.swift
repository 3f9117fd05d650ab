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
    /// (read from this catalog) and the catalog's failures: false only when every file has
    /// an asset or a failure with the same size, mtime, inode and ctime, every catalogued asset
    /// and failure was found, and no folder was unreadable. The cheap check a mount makes
    /// before it serves an already-indexed library; `run(scan:)` does the work otherwise.
    public func needsRun(_ scan: LibraryScan, snapshot: LibrarySnapshot) throws(IndexError) -> Bool {
        let walk = scan.walk
        guard walk.unreadableFolders.isEmpty else { return true }
        let failures: [LibraryPath: FileStat]
        do {
            failures = try catalog.failureStates()
        } catch {
            throw .catalog(error)
        }
        var stored: [LibraryPath: FileStat] = [:]
        stored.reserveCapacity(snapshot.assets.count)
        for asset in snapshot.assets {
            stored[asset.path] = FileStat(
                size: asset.size, mtimeNanoseconds: asset.mtimeNanoseconds, inode: asset.inode, ctimeNanoseconds: asset.ctimeNanoseconds)
        }
        var matchedAssets = 0
        var matchedFailures = 0
        for file in walk.files {
            if let stat = stored[file.path] {
                guard stat == file.stat else { return true }
                matchedAssets += 1
            } else if let stat = failures[file.path] {
                guard stat == file.stat else { return true }
                matchedFailures += 1
            } else {
                return true
            }
        }
        // A catalogued path the walk did not find is a deletion (or a move) to record.
        return matchedAssets != stored.count || matchedFailures != failures.count
    }
}
