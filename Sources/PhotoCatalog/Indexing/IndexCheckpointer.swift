import Dispatch
import Synchronization

/// Copies an index run's WAL into the catalog on a connection and thread of its own while
/// the run goes on, so its end has little left to copy and sync.
///
/// An index run commits a batch at a time, and each batch rewrites pages all over the
/// catalog's b-trees (ids and fingerprints are random keys): left alone, the WAL grows to
/// several times the catalog, and the checkpoint when the catalog closes syncs all of it,
/// copies every page and removes the large file while nothing else is left to do. A passive
/// checkpoint after each commit runs while the next batch is analysed (its syncs wait on the
/// disk, not on a core); once it has copied every frame, the next commit starts the WAL
/// from its beginning again. A passive checkpoint never waits for a lock and never blocks
/// the writer; what a commit promises is unchanged (SQLite syncs the WAL before it copies
/// and the catalog after).
final class IndexCheckpointer: Sendable {
    private let database: Mutex<Database?>
    private let waiting = Mutex(false)
    private let queue = DispatchQueue(label: "photofs.index-checkpoint")

    /// A checkpointer for the catalog at `path`; one that does nothing when the catalog
    /// cannot be opened again (it is then written by no index run either).
    init(path: String) {
        database = Mutex(try? Database(path: path))
    }

    /// Starts a passive checkpoint after a commit, unless one is still waiting to start.
    func request() {
        let alreadyWaiting = waiting.withLock { waiting in
            defer { waiting = true }
            return waiting
        }
        guard !alreadyWaiting else { return }
        queue.async { [self] in
            waiting.withLock { $0 = false }
            database.withLock { db in _ = try? db?.execute("PRAGMA wal_checkpoint(PASSIVE)") }
        }
    }

    /// Waits for the checkpoint under way, if any, and closes the connection (which leaves
    /// the WAL to the catalog's own connection).
    func finish() {
        queue.sync {}
        database.withLock { $0 = nil }
    }
}
