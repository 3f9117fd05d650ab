import MediaFormats
import Synchronization

/// The plans of the files read lately, so that the READs of one file (the kernel splits a
/// read into requests of at most 128 KiB, and there is no OPEN to hold them) fetch its plan
/// once. Keyed by the file version as well as the asset: a plan is never used for another
/// version of the file. Bounded: the oldest entry goes first.
final class PlanCache: Sendable {
    struct Key: Hashable {
        let id: AssetID
        let size: Int64
        let mtimeNanoseconds: Int64
        let inode: UInt64
        let ctimeNanoseconds: Int64
        let location: LocationPolicy
        let metadata: MetadataPolicy
    }

    private struct Entries {
        var plans: [Key: ServedPlan] = [:]
        /// Keys in insertion order, a ring of `capacity` slots.
        var order: [Key?]
        var next = 0
    }

    private let entries: Mutex<Entries>
    private let capacity: Int

    init(capacity: Int = 64) {
        self.capacity = capacity
        entries = Mutex(Entries(order: Array(repeating: nil, count: capacity)))
    }

    /// The plan for `asset` under both policies: from the cache, or fetched with `fetch`
    /// (outside the lock) and kept. A failed fetch keeps nothing.
    func plan(
        of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy,
        fetch: () throws(ViewLayerError) -> ServedPlan
    ) throws(ViewLayerError) -> ServedPlan {
        let key = Key(
            id: asset.id, size: asset.size, mtimeNanoseconds: asset.mtimeNanoseconds, inode: asset.inode,
            ctimeNanoseconds: asset.ctimeNanoseconds, location: location, metadata: metadata)
        if let found = entries.withLock({ $0.plans[key] }) { return found }
        let plan = try fetch()
        entries.withLock { e in
            guard e.plans[key] == nil else { return }
            if let old = e.order[e.next] { e.plans[old] = nil }
            e.order[e.next] = key
            e.plans[key] = plan
            e.next = (e.next + 1) % capacity
        }
        return plan
    }
}
