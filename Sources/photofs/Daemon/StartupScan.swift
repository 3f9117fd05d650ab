import Dispatch
import PhotoCatalog
import PhotoCore
import PhotoFS
import Synchronization

/// The walk of the library that a mount makes on a thread of its own while the catalog is
/// loaded and the views are computed; once the catalog's snapshot is handed over
/// (`compare(with:)`), the same thread also decides whether anything is new. With a
/// watcher, each folder is watched just before it is read, so any change the walk cannot
/// have seen is queued for the watcher.
final class StartupScan: Sendable {
    /// The walk and whether it needs an index run, or why it failed.
    private let outcome = Mutex<Result<(LibraryScan, Bool), IndexError>?>(nil)
    private let snapshot = Mutex<LibrarySnapshot?>(nil)
    private let snapshotReady = DispatchSemaphore(value: 0)
    private let done = DispatchGroup()

    /// Starts walking now.
    init(indexer: Indexer, watcher: LibraryWatcher?) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result: Result<(LibraryScan, Bool), IndexError>
            do throws(IndexError) {
                let scan = try indexer.scan(entering: watcher.map { watcher in { watcher.watch($0) } })
                snapshotReady.wait()
                let loaded = snapshot.withLock { $0 } ?? LibrarySnapshot()
                result = .success((scan, try indexer.needsRun(scan, snapshot: loaded)))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.leave()
        }
    }

    /// Hands over the catalog's snapshot that the walk is compared with (call once).
    func compare(with loaded: LibrarySnapshot) {
        snapshot.withLock { $0 = loaded }
        snapshotReady.signal()
    }

    /// Waits for the walk and the comparison: the scan, and whether an index run is
    /// needed; the CLI's error (as `photofs index` words it) when the walk or the catalog
    /// failed. Call once: the scan is handed over, not kept.
    func result(context: LibraryContext) throws(CLIError) -> (scan: LibraryScan, needsIndexing: Bool) {
        done.wait()
        let taken = outcome.withLock { outcome in
            defer { outcome = nil }
            return outcome
        }
        switch taken {
        case .success(let (scan, needed)): return (scan, needed)
        case .failure(let error): throw IndexCommand.describe(error, context: context)
        case nil: throw .failure("the scan of \(context.library) did not finish.")
        }
    }
}
