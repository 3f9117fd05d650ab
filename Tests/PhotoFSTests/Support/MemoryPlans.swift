import MediaFormats
import PhotoCore
import Synchronization

/// The redaction plans of a `TestLibrary`'s assets, kept in memory the way the catalog keeps
/// them in its rows: one version of each asset's file, so a read of another version is
/// refused (ESTALE) as the daemon's catalog-backed plans refuse it.
final class MemoryPlans: RedactionPlanSource {
    private let stored = Mutex<[AssetID: (asset: Asset, plans: RedactionPlans)]>([:])

    /// Records the plans of `asset`'s file as it is now (replacing another version's).
    func store(_ plans: RedactionPlans, for asset: Asset) {
        stored.withLock { $0[asset.id] = (asset, plans) }
    }

    func plan(of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError) -> ServedPlan {
        guard let found = stored.withLock({ $0[asset.id] }), found.asset.isSameFile(as: asset) else { throw .stale }
        return metadata == .private ? .privatePlans(found.plans.privatePlans) : .location(found.plans.plan(for: location))
    }
}
