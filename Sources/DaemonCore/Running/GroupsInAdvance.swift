import Foundation
import PhotoCatalog
import PhotoCore
import Synchronization

/// The picker's asset groups (Live Photos, RAW+JPEG pairs) of the first snapshot, derived on
/// a thread of their own while the views are built, for the index the views make
/// (`AssetIndex.adoptGroups`).
///
/// Every select asks for the groups. Derived after ready at nice 10, as they were, a select
/// that came first waited for them on a loaded machine (tens of milliseconds at a million
/// assets); derived before ready one after the other, they would lengthen the start-up. A
/// build from kept tables leaves a core free for them.
public final class GroupsInAdvance: Sendable {
    private let done = DispatchGroup()
    private let result = Mutex<AssetGroups?>(nil)

    /// Starts deriving the groups of `snapshot`'s assets with `catalog`'s content identifiers.
    public init(of snapshot: LibrarySnapshot, catalog: Catalog) {
        done.enter()
        Thread.detachNewThread { [self] in
            defer { done.leave() }
            // No identifiers read means no Live Photo partner: less is granted, never more.
            let groups = AssetGroups(snapshot.assets, identifiers: (try? catalog.contentIdentifiers()) ?? [:])
            result.withLock { $0 = groups }
        }
    }

    /// Waits for the groups and hands them to `index`.
    public func give(to index: AssetIndex) {
        done.wait()
        if let groups = result.withLock({ $0 }) { index.adoptGroups(groups) }
    }
}
