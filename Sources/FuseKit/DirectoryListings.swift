import PhotoCore
import Synchronization

/// The listings READDIR made lately for directories read without an open handle (the
/// mount answers OPENDIR with ENOSYS, see `Directory.swift`): a directory too large for one
/// reply is asked for page after page, and making its listing anew for each page would cost
/// the whole listing every time (a folder holding files and subfolders merges their names).
///
/// A listing is handed out only while the current views list the directory from the same
/// stored nodes (`ViewListing.readsSameNodes`), so a position in it is the position in the
/// current listing. Every views change drops them all (`dropAll`, from `Invalidator.submit`):
/// a kept listing holds the parts of the views it was made from, and the daemon must not
/// keep a replaced library in memory until the next READDIR.
final class DirectoryListings: Sendable {
    /// How many directories are kept: a walk reads one directory at a time per thread.
    static let capacity = 8

    private struct Kept {
        let inode: UInt64
        let listing: ViewListing
    }

    private struct State {
        /// Most recently used last.
        var kept: [Kept] = []
        /// Counts `dropAll` calls: a listing made from views read before a drop is not kept.
        var epoch: UInt64 = 0
    }

    private let state = Mutex(State())
    /// `State.epoch`, readable without the lock (every LOOKUP reads it).
    private let published = Atomic<UInt64>(0)

    init() {}

    /// The count of drops so far: read before the views a listing is made from.
    var epoch: UInt64 { published.load(ordering: .acquiring) }

    /// The listing of `inode` in `current`: a kept one that reads the same nodes, or a new
    /// one made from `current` (kept unless the views changed since `epoch` was read).
    func listing(of inode: UInt64, in current: ViewTree, epoch: UInt64) -> ViewListing? {
        let kept = state.withLock { state -> ViewListing? in
            guard let index = state.kept.lastIndex(where: { $0.inode == inode }) else { return nil }
            let found = state.kept.remove(at: index)
            state.kept.append(found)
            return found.listing
        }
        if let kept, kept.readsSameNodes(as: current, of: inode) { return kept }
        guard let made = current.listing(of: inode) else { return nil }
        state.withLock { state in
            state.kept.removeAll { $0.inode == inode }
            // Made from views that a drop has replaced since: kept, it would outlive them.
            guard state.epoch == epoch else { return }
            if state.kept.count >= Self.capacity { state.kept.removeFirst() }
            state.kept.append(Kept(inode: inode, listing: made))
        }
        return made
    }

    /// Forgets every kept listing (after the views changed).
    func dropAll() {
        state.withLock { state in
            state.kept.removeAll()
            state.epoch &+= 1
            published.store(state.epoch, ordering: .releasing)
        }
    }
}
