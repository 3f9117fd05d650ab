import Dispatch
import PhotoCatalog
import PhotoCore
import PhotoFS
import Synchronization

/// The walk of the library that a mount makes on a thread of its own while the catalog is
/// loaded and the views are computed. With a watcher, each folder is watched just before
/// it is read, so any change the walk cannot have seen is queued for the watcher.
final class StartupScan: Sendable {
    private let outcome = Mutex<Result<LibraryScan, IndexError>?>(nil)
    private let done = DispatchGroup()

    /// Starts walking now.
    init(indexer: Indexer, watcher: LibraryWatcher?) {
        done.enter()
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let result: Result<LibraryScan, IndexError>
            do throws(IndexError) {
                result = .success(try indexer.scan(entering: watcher.map { watcher in { watcher.watch($0) } }))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.leave()
        }
    }

    /// Waits for the walk; the CLI's error when the library could not be walked.
    func result(library: String) throws(CLIError) -> LibraryScan {
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let scan): return scan
        case .failure(.library(let reason)): throw .notFound("cannot read the library \(library): \(reason).")
        case .failure(.catalog(let reason)): throw .failure("the catalog failed: \(reason).")
        case nil: throw .failure("the scan of \(library) did not finish.")
        }
    }
}

/// The library state and file system a mount serves, set once they exist: the watcher is
/// made (and starts queueing changes) before them.
final class LateViews: Sendable {
    private let views = Mutex<(LibraryState, PhotoFileSystem)?>(nil)

    func set(state: LibraryState, fileSystem: PhotoFileSystem) { views.withLock { $0 = (state, fileSystem) } }

    func get() -> (LibraryState, PhotoFileSystem)? { views.withLock { $0 } }
}
