import CFuse
import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// Tells the kernel which cached names, attributes, pages and listings to drop after a
/// snapshot swap. The notifications run on their own serial queue, never inside the
/// request handler that caused them: libfuse warns that invalidating from the execution
/// path of a related operation (a lookup in the same directory, a readdir of the same
/// inode) deadlocks. Notifications for inodes the kernel does not know fail with ENOENT,
/// which is expected and ignored.
///
/// Owned by the file system, fed by its `ChangeDrain` from the `ChangeQueue` the owner of
/// the live state publishes to; attached once mounted. The queue counts the changes
/// (`epoch`) and says when a library change is under way (`redo`).
///
/// Every change also drops the listings the daemon keeps for READDIR without an open
/// handle (`DirectoryListings`): each change of the views comes through here.
public final class Invalidator: Sendable {
    private let queue = DispatchQueue(label: "photofs.invalidate")
    /// The listings READDIR keeps between the pages of a directory.
    let listings: DirectoryListings
    /// Where the changes come from: their count and whether one is under way.
    let changes: ChangeQueue
    private let session = Mutex<SessionPointer?>(nil)
    private let log: @Sendable (String) -> Void

    init(changes: ChangeQueue, log: @escaping @Sendable (String) -> Void) {
        self.changes = changes
        self.listings = DirectoryListings(changes: changes)
        self.log = log
    }

    /// Starts notifying through `session` (after the mount succeeded).
    func attach(_ session: OpaquePointer) {
        self.session.withLock { $0 = SessionPointer(pointer: session) }
    }

    /// Stops notifying and waits for queued notifications to finish (before the session
    /// is destroyed).
    func detach() {
        session.withLock { $0 = nil }
        queue.sync {}
    }

    /// Queues the notifications for `changes` (one change the `ChangeDrain` took); waits up
    /// to `wait` seconds for them to be sent. Empty `changes` only drop the kept listings.
    func submit(_ changes: ViewTreeChanges, wait: Double) {
        listings.dropAll()
        guard !changes.isEmpty else { return }
        let done = DispatchSemaphore(value: 0)
        queue.async { [self] in
            send(changes)
            done.signal()
        }
        if wait > 0, done.wait(timeout: .now() + wait) == .timedOut {
            log(
                "invalidation of \(changes.removedEntries.count) names and \(changes.invalidatedInodes.count) inodes is taking longer than \(wait) s; continuing"
            )
        }
    }

    /// Counts the views' changes: read before the views an answer is made from (`redo`).
    var epoch: UInt64 { changes.epoch }

    /// Drops again what one reply may have put in the kernel's caches, when the views
    /// changed since `epoch` (read before the views that reply was made from) or a change
    /// is under way (`ChangeQueue.isChanging`). Such a reply can reach the kernel after the
    /// change's own notifications, or hold what they were computed without, and the kernel
    /// would then trust the old answer for the whole cache timeout (a day). A reply checked
    /// before the change began was made before its invalidations were computed and sent
    /// before they were queued: they cover it. Queued like every notification, never sent
    /// from the handler itself.
    func redo(since epoch: UInt64, _ made: () -> ViewTreeChanges) {
        guard changes.isChanging || changes.epoch != epoch else { return }
        let again = made()
        guard !again.isEmpty else { return }
        queue.async { [self] in send(again) }
    }

    private func send(_ changes: ViewTreeChanges) {
        // The session stays valid while this runs: `detach` waits for the queue.
        guard let se = session.withLock({ $0 })?.pointer else { return }
        for entry in changes.removedEntries {
            let result = entry.name.withUnsafeBufferPointer { name in
                name.withMemoryRebound(to: CChar.self) { chars in
                    // The name must be NUL-terminated for libfuse; copy with a terminator.
                    withUnsafeTemporaryAllocation(of: CChar.self, capacity: chars.count + 1) { buffer in
                        _ = buffer.initialize(fromContentsOf: chars)
                        buffer[chars.count] = 0
                        return fuse_lowlevel_notify_inval_entry(se, entry.parent, buffer.baseAddress, chars.count)
                    }
                }
            }
            report(result, "entry")
        }
        for inode in changes.invalidatedInodes {
            report(fuse_lowlevel_notify_inval_inode(se, inode, 0, 0), "inode")
        }
    }

    private func report(_ result: Int32, _ what: String) {
        // -ENOENT: the kernel never looked it up. -ENOTCONN/-EBADF: unmounting.
        let code = Errno(rawValue: -result)
        if result < 0, code != .noSuchFileOrDirectory, code != .notConnected, code != .badFileDescriptor {
            log("could not invalidate a cached \(what): errno \(-result)")
        }
    }
}

/// A libfuse session pointer that may cross threads (libfuse's notify calls are thread-safe).
struct SessionPointer: @unchecked Sendable {
    let pointer: OpaquePointer
}
