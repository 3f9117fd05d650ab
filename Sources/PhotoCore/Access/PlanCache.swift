import MediaFormats
import Synchronization

/// The plans of the files read lately and of the files read next, so that a read of a
/// redacted view rarely waits for the plan source (the catalog): the READs of one file
/// (the kernel splits a read into requests of at most 128 KiB, and there is no OPEN to
/// hold them) fetch its plan once, and a reader going through a folder finds most plans
/// read ahead. Keyed by the file version as well as the asset: a plan is never used for
/// another version of the file. Bounded: the oldest entry goes first.
///
/// Read-ahead works like the kernel's for file pages: a miss fetches the plan with the
/// plans of the next `initialWindow` files in the source's order; a miss on the file right
/// after the last one read ahead (a reader going on through the folder) doubles the
/// window, up to `maxWindow`; any other miss starts again at `initialWindow`. One window
/// per pair of policies, since each view of an app is read on its own.
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

    /// The policies a plan serves (a window of read-ahead each).
    struct Policies: Hashable {
        let location: LocationPolicy
        let metadata: MetadataPolicy
    }

    /// Where a sequential reader of one pair of policies is.
    struct ReadAhead {
        /// The asset after the last plan read ahead.
        var next: AssetID?
        /// How many plans the last fetch read ahead.
        var window = 0
    }

    private struct Entries {
        var plans: [Key: ServedPlan] = [:]
        /// Keys in insertion order, a ring of `capacity` slots.
        var order: [Key?]
        var next = 0
        var readAhead: [Policies: ReadAhead] = [:]
    }

    private let entries: Mutex<Entries>
    private let capacity: Int
    let initialWindow: Int
    let maxWindow: Int

    /// A cache of `capacity` plans, which should hold a few full windows for each pair of
    /// policies read at once (the plans read ahead and those still being read).
    init(capacity: Int = 512, initialWindow: Int = 4, maxWindow: Int = 64) {
        self.capacity = max(1, capacity)
        self.initialWindow = max(0, initialWindow)
        self.maxWindow = max(self.initialWindow, maxWindow)
        entries = Mutex(Entries(order: Array(repeating: nil, count: self.capacity)))
    }

    /// The plan for `asset` under both policies: from the cache, or fetched with `fetch`
    /// (outside the lock, given how many plans to read ahead) and kept with the plans read
    /// ahead. A failed fetch keeps nothing.
    func plan(
        of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy,
        fetch: (_ ahead: Int) throws(ViewLayerError) -> PlanBatch
    ) throws(ViewLayerError) -> ServedPlan {
        let key = Key(
            id: asset.id, size: asset.size, mtimeNanoseconds: asset.mtimeNanoseconds, inode: asset.inode,
            ctimeNanoseconds: asset.ctimeNanoseconds, location: location, metadata: metadata)
        let policies = Policies(location: location, metadata: metadata)
        let initialWindow = self.initialWindow
        let maxWindow = self.maxWindow
        let (found, ahead) = entries.withLock { (e: inout Entries) -> (ServedPlan?, Int) in
            if let found = e.plans[key] { return (found, 0) }
            let last = e.readAhead[policies] ?? ReadAhead()
            let sequential = last.next == asset.id && last.window > 0
            return (nil, sequential ? min(maxWindow, last.window * 2) : initialWindow)
        }
        if let found { return found }
        let batch = try fetch(ahead)
        entries.withLock { (e: inout Entries) in
            keep(key, batch.plan, in: &e)
            for other in batch.following {
                let otherKey = Key(
                    id: other.id, size: other.size, mtimeNanoseconds: other.mtimeNanoseconds, inode: other.inode,
                    ctimeNanoseconds: other.ctimeNanoseconds, location: location, metadata: metadata)
                keep(otherKey, other.plan, in: &e)
            }
            e.readAhead[policies] = ReadAhead(next: batch.next, window: ahead)
        }
        return batch.plan
    }

    /// Adds one plan (unless kept already), dropping the oldest when full.
    private func keep(_ key: Key, _ plan: ServedPlan, in e: inout Entries) {
        guard e.plans[key] == nil else { return }
        if let old = e.order[e.next] { e.plans[old] = nil }
        e.order[e.next] = key
        e.plans[key] = plan
        e.next = (e.next + 1) % capacity
    }

    /// Whether a plan for `asset` under both policies is kept (tests).
    func holds(_ asset: Asset, location: LocationPolicy, metadata: MetadataPolicy) -> Bool {
        let key = Key(
            id: asset.id, size: asset.size, mtimeNanoseconds: asset.mtimeNanoseconds, inode: asset.inode,
            ctimeNanoseconds: asset.ctimeNanoseconds, location: location, metadata: metadata)
        return entries.withLock { $0.plans[key] != nil }
    }
}
