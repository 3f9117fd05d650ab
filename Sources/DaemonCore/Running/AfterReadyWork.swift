import Dispatch
import Foundation
import PhotoCatalog
import SystemKit

/// What a daemon does once its mount answers and nothing waits for: the picker's asset
/// groups (every select asks for them; derived now rather than by the first select), its
/// path table and the capture-date order that `select --where` and rule apps walk (sorted
/// now rather than by the first such write: about a second at a million assets), then the
/// snapshot file the next mount reads instead of the catalog's table.
///
/// It runs on a thread of its own at nice 10 (Linux keeps the nice value per thread), below
/// the requests the mount answers meanwhile: a select right after ready must not queue
/// behind a sort or a 170 MB write on two cores. `wait` holds the daemon's exit until it is
/// done, so that no half-written file is left behind.
public final class AfterReadyWork: Sendable {
    private let done = DispatchGroup()

    public init() {}

    /// Starts the work for `state`, logging the snapshot file's outcome to `log`.
    public func start(state: LibraryState, log logger: DaemonLog) {
        done.enter()
        Thread.detachNewThread { [done] in
            defer { done.leave() }
            ThreadPriority.setNice(10)
            state.current.assets.prepare(dateOrder: true)
            do throws(SnapshotFileError) {
                if try state.saveLoadedSnapshot() { logger.debug("saved the snapshot file and the view tables for the next mount") }
            } catch {
                logger.warning("cannot save the snapshot file (the next mount reads the catalog): \(error)")
            }
        }
    }

    /// Waits for the work started, if any.
    public func wait() { done.wait() }
}
