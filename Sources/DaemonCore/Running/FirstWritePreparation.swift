import Dispatch
import Foundation
import PhotoCatalog

/// Starts the catalog's first write early (`Catalog.prepareFirstWrite`), on a thread of its
/// own while the views are built, so that the first `.picker` select after the mount is
/// ready does not start SQLite's write-ahead log itself (three syncs instead of one).
///
/// It waits on the disk, not on a core: beside the views' passes over the assets it costs
/// the mount nothing. A select that comes before it is done waits for the catalog as any
/// second writer would. A failure is only logged: the first select then does the work.
public final class FirstWritePreparation: Sendable {
    private let done = DispatchGroup()

    public init() {}

    /// Starts the write to `catalog`, logging a failure to `log`.
    public func start(catalog: Catalog, log logger: DaemonLog) {
        done.enter()
        Thread.detachNewThread { [done] in
            defer { done.leave() }
            do throws(CatalogError) {
                try catalog.prepareFirstWrite()
            } catch {
                logger.warning("cannot write to the catalog ahead of the first select (it will do so itself): \(error)")
            }
        }
    }

    /// Waits up to `seconds` for the write; false when it is still going (a disk that
    /// hangs must not hold the daemon's exit: SQLite rolls back an unfinished write).
    @discardableResult
    public func wait(atMost seconds: Double) -> Bool {
        done.wait(timeout: .now() + seconds) == .success
    }
}
