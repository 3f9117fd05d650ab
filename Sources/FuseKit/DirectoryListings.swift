import PhotoCore
import Synchronization

/// The listings READDIR made lately for directories read without an open handle (the
/// mount answers OPENDIR with ENOSYS, see `Directory.swift`): a directory too large for one
/// reply is asked for page after page, and making its listing anew for each page would cost
/// the whole listing every time (a folder holding files and subfolders merges their names).
///
/// A listing is handed out only while the current views list the directory from the same
/// stored nodes (`ViewListing.readsSameNodes`), so a position in it is the position in the
/// current listing. Every views change drops them all (`dropAll`, from `Invalidator.submit`;
/// the change moved `ChangeQueue.epoch` before):
/// a kept listing holds the parts of the views it was made from, and the daemon must not
/// keep a replaced library in memory until the next READDIR.
final class DirectoryListings: Sendable {
    /// How many directories are kept: a walk reads one directory at a time per thread.
    static let capacity = 8

    private struct Kept {
        let inode: UInt64
        let listing: ViewListing
    }

    /// Most recently used last.
    private let kept = Mutex<[Kept]>([])
    /// Counts the changes: a listing made from views read before a change is not kept. A
    /// change moves the count before its `dropAll`, so a listing kept before the count
    /// moved is dropped by it.
    private let changes: ChangeQueue

    init(changes: ChangeQueue) { self.changes = changes }

    /// The listing of `inode` in `current`: a kept one that reads the same nodes, or a new
    /// one made from `current` (kept unless the views changed since `epoch` was read).
    func listing(of inode: UInt64, in current: ViewTree, epoch: UInt64) -> ViewListing? {
        let found = kept.withLock { kept -> ViewListing? in
            guard let index = kept.lastIndex(where: { $0.inode == inode }) else { return nil }
            let found = kept.remove(at: index)
            kept.append(found)
            return found.listing
        }
        if let found, found.readsSameNodes(as: current, of: inode) { return found }
        guard let made = current.listing(of: inode) else { return nil }
        kept.withLock { kept in
            kept.removeAll { $0.inode == inode }
            // Made from views that a drop has replaced since: kept, it would outlive them.
            guard changes.epoch == epoch else { return }
            if kept.count >= Self.capacity { kept.removeFirst() }
            kept.append(Kept(inode: inode, listing: made))
        }
        return made
    }

    /// Forgets every kept listing (after the views changed).
    func dropAll() {
        kept.withLock { $0.removeAll() }
    }
}
