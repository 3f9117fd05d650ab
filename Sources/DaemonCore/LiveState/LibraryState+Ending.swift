import PhotoCatalog
import PhotoCore

extension LibraryState {
    /// When something may end by itself next: the earliest expiry and the one-time runs on
    /// record, for the state of one `version`.
    public struct EndingOutlook: Sendable {
        public let version: Int
        public let nextExpiry: Int64?
        public let runOwners: Set<RunOwner>
    }

    /// What may end next in the current state (O(grants): callers keep it per `version`).
    public func endingOutlook() -> EndingOutlook {
        let current = self.current
        let access = AccessState(current.snapshot)
        return EndingOutlook(version: current.version, nextExpiry: access.nextExpiry, runOwners: access.runOwners)
    }

    /// The version of the current state: it changes with every install.
    public var version: Int { current.version }

    /// Removes what has ended by `now` (expired grants and rules, the grants and rules of
    /// one-time runs whose process `isRunning` says is gone) from the catalog and the
    /// views, through the same install path as a picker write, and publishes it; returns
    /// what the kernel must forget, or nil when nothing had ended (nothing published).
    @discardableResult
    public func endFinishedGrants(now: Int64, isRunning: (RunOwner) -> Bool) throws(CatalogError) -> ViewTreeChanges? {
        var ended: ViewTreeChanges?
        try publish(.access) { () throws(CatalogError) -> ViewTreeChanges? in
            ended = try endFinishedGrantsUnpublished(now: now, isRunning: isRunning)
            return ended
        }
        return ended
    }

    private func endFinishedGrantsUnpublished(now: Int64, isRunning: (RunOwner) -> Bool) throws(CatalogError) -> ViewTreeChanges? {
        try state.withLock { (current: inout Current) throws(CatalogError) -> ViewTreeChanges? in
            let before = AccessState(current.snapshot)
            let after = before.ending(at: now, isRunning: isRunning)
            guard after != before else { return nil }
            try catalog.replaceAccessState(apps: after.apps, grants: after.grants)
            var snapshot = current.snapshot
            snapshot.apps = after.apps
            snapshot.grants = after.grants
            return install(snapshot, accessOnly: true, into: &current)
        }
    }
}
