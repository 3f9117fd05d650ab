import Dispatch
import Foundation
import PhotoCatalog
import Synchronization

/// Starts the catalog's first write early (`Catalog.prepareFirstWrite`), on a thread of its
/// own while the views are built, so that the first `.picker` select after the mount is
/// ready does not start SQLite's write-ahead log itself (three syncs instead of one).
///
/// It waits on the disk, not on a core: beside the views' passes over the assets it costs
/// the mount nothing. A select that comes before it is done waits for the catalog as any
/// second writer would. A failure is only logged: the first select then does the work.
public final class FirstWritePreparation: Sendable {
    private let done = DispatchGroup()
    private let identifiers = Mutex<Bool?>(nil)

    public init() {}

    /// Whether the catalog held no content identifier when `start` was called (nil when not
    /// known): the picker's warm-up then settles the asset groups without asking the
    /// catalog, which the write holds meanwhile.
    public var noContentIdentifiers: Bool { identifiers.withLock { $0 == false } }

    /// Starts the write to `catalog`, logging a failure to `log`. First, on the calling
    /// thread, looks whether the catalog holds any content identifier (one indexed row).
    public func start(catalog: Catalog, log logger: DaemonLog) {
        let holds = try? catalog.holdsContentIdentifiers()
        identifiers.withLock { $0 = holds }
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
