import PhotoCore
import Synchronization

/// The live state of one catalogued library: the current snapshot, an index of its assets,
/// and the one path by which picker commands change apps and grants.
///
/// Both the daemon (writes to `.picker`) and the CLI when nothing is mounted go through
/// `execute(write:)`: one parser, one executor, one place that persists. Writes are
/// serialised by a lock held from reading the state to committing it, so two writes
/// never lose each other's grants; the grants are durable before `execute` returns.
public final class LibraryState: Sendable {
    /// What views are computed from, with its asset index.
    public struct Current: Sendable {
        public let snapshot: LibrarySnapshot
        public let assets: AssetIndex
    }

    /// Why a picker write did not apply.
    public enum WriteError: Error, Sendable {
        /// The write was refused: nothing changed.
        case refused(PickerError)
        /// The catalog failed to persist it: nothing changed.
        case catalog(CatalogError)
    }

    public let catalog: Catalog
    private let state: Mutex<Current>

    /// Loads the catalog's current snapshot.
    public init(catalog: Catalog) throws(CatalogError) {
        self.catalog = catalog
        let snapshot = try catalog.snapshot()
        state = Mutex(Current(snapshot: snapshot, assets: AssetIndex(snapshot.assets)))
    }

    /// The snapshot and index in force now.
    public var current: Current { state.withLock { $0 } }

    /// Re-reads the catalog (after an index run) and returns the new state. With `changed`
    /// (the ids of the index runs' `IndexSummary.changedIDs`), reads only those rows.
    @discardableResult
    public func reload(changed: Set<AssetID>? = nil) throws(CatalogError) -> Current {
        try state.withLock { (current: inout Current) throws(CatalogError) -> Current in
            let snapshot: LibrarySnapshot
            if let changed {
                snapshot = try catalog.snapshot(updating: current.snapshot, changed: changed)
            } else {
                snapshot = try catalog.snapshot(reusing: current.snapshot)
            }
            current = Current(snapshot: snapshot, assets: AssetIndex(snapshot.assets))
            return current
        }
    }

    /// Applies one write of picker commands as one transaction and persists it before
    /// returning; returns the new state and what changed (revocations to invalidate).
    public func execute(
        write: [UInt8], resolver: some TargetResolving = NoMountPaths(), now: Int64
    ) throws(WriteError) -> (Current, [AccessChange]) {
        try state.withLock { (current: inout Current) throws(WriteError) -> (Current, [AccessChange]) in
            let before = AccessState(current.snapshot)
            let after: AccessState
            let changes: [AccessChange]
            do throws(PickerError) {
                (after, changes) = try PickerExecutor.apply(write: write, to: before, assets: current.assets, resolver: resolver, now: now)
            } catch {
                throw .refused(error)
            }
            if !changes.isEmpty || after != before {
                do throws(CatalogError) {
                    try catalog.replaceAccessState(apps: after.apps, grants: after.grants)
                } catch {
                    throw .catalog(error)
                }
            }
            var snapshot = current.snapshot
            snapshot.apps = after.apps
            snapshot.grants = after.grants
            current = Current(snapshot: snapshot, assets: current.assets)
            return (current, changes)
        }
    }

    /// The text a fresh read of `.picker` shows: every app and its selection.
    public func render() -> String {
        let current = self.current
        return PickerRenderer.render(AccessState(current.snapshot), assets: current.assets)
    }
}
