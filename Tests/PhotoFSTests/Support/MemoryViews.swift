import Glibc
import PhotoCore
import Synchronization

/// A real owner of views over an in-memory snapshot (no catalog): what the in-process
/// mounts serve. `install` replaces the views the way the daemon's `LibraryState` does and
/// returns what the kernel must forget.
final class MemoryViews: ViewSource {
    private let filters: any AppFilterResolving
    private let tree: Mutex<ViewTree>

    init(_ snapshot: LibrarySnapshot, filters: some AppFilterResolving = FilterLanguageResolver()) {
        self.filters = filters
        tree = Mutex(ViewTree.build(snapshot: snapshot, filters: filters))
    }

    var views: ViewTree { tree.withLock { $0 } }

    /// Shows `snapshot`; with `accessOnly`, it must have the current assets and only the
    /// changed apps are rebuilt.
    func install(_ snapshot: LibrarySnapshot, accessOnly: Bool = false) -> ViewTreeChanges {
        tree.withLock { current in
            let old = current
            current =
                accessOnly
                ? old.replacingAccess(apps: snapshot.apps, grants: snapshot.grants, filters: filters)
                : ViewTree.build(snapshot: snapshot, previous: old, filters: filters)
            let changes = old.changes(to: current)
            var now = timespec()
            clock_gettime(CLOCK_REALTIME, &now)
            current.recordListingChanges(changes, at: Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
            return changes
        }
    }
}
