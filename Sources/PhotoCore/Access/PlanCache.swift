import MediaFormats
import Synchronization

/// The plans of the files read lately and of the files read next, so that a read of a
/// redacted view rarely waits for the plan source (the catalog): the READs of one file
/// (the kernel splits a read into requests of at most 128 KiB, and there is no OPEN to
/// hold them) fetch its plan once, and a reader going through a folder finds the plans
/// read ahead. Keyed by the file version as well as the asset: a plan is never used for
/// another version of the file. Bounded: the oldest entry goes first.
///
/// Read-ahead works like the kernel's for file pages. A miss fetches the plan with the
/// plans of the next files in the source's order: `initialWindow` of them, or twice the
/// last window when the miss is on the file right after the last plan read ahead (a
/// reader going on through the folder), up to `maxWindow`. When a reader reaches the
/// middle of a window, the next window (twice as large, up to `maxWindow`) is fetched in
/// the background (`start`), so that a reader going on finds it kept instead of waiting
/// for it. One read-ahead per pair of policies, since each view of an app is read on its own.
final class PlanCache: Sendable {
    struct Key: Hashable {
        let version: FileVersion
        let policies: Policies
    }

    /// The policies a plan serves (a read-ahead each).
    struct Policies: Hashable {
        let location: LocationPolicy
        let metadata: MetadataPolicy
    }

    /// Where the read-ahead of one pair of policies is.
    struct ReadAhead {
        /// Where the plans read ahead end: the next read-ahead starts there.
        var next: PlanCursor?
        /// How many plans the last read-ahead asked for.
        var window = 0
        /// The plan whose first use starts the next read-ahead in the background.
        var trigger: AssetID?
        /// Whether a background read-ahead is under way.
        var running = false
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
    /// Runs a background read-ahead (a detached task; tests run it at once).
    private let start: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// A cache of `capacity` plans, which should hold a few full windows for each pair of
    /// policies read at once (the plans read ahead and those still being read).
    init(
        capacity: Int = 512, initialWindow: Int = 4, maxWindow: Int = 64,
        start: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { work in Task.detached { work() } }
    ) {
        self.capacity = max(1, capacity)
        self.initialWindow = max(0, initialWindow)
        self.maxWindow = max(self.initialWindow, maxWindow)
        self.start = start
        entries = Mutex(Entries(order: Array(repeating: nil, count: self.capacity)))
    }

    /// The plan for `asset` under both policies: from the cache, or fetched with `fetch`
    /// (outside the lock, given how many plans to read ahead) and kept with the plans read
    /// ahead. A failed fetch keeps nothing. `readAhead` fetches plans for reads to come, in
    /// the background.
    func plan(
        of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy,
        fetch: (_ ahead: Int) throws(ViewLayerError) -> PlanBatch,
        readAhead: @escaping @Sendable (_ from: PlanCursor, _ count: Int) throws(ViewLayerError) -> PlansAhead
    ) throws(ViewLayerError) -> ServedPlan {
        let policies = Policies(location: location, metadata: metadata)
        let key = Key(version: FileVersion(of: asset), policies: policies)
        let (initialWindow, maxWindow) = (self.initialWindow, self.maxWindow)
        let (found, ahead, background) = entries.withLock { (e: inout Entries) -> (ServedPlan?, Int, (PlanCursor, Int)?) in
            var state = e.readAhead[policies] ?? ReadAhead()
            if let found = e.plans[key] {
                guard state.trigger == asset.id, !state.running, let next = state.next else { return (found, 0, nil) }
                state.trigger = nil
                state.running = true
                e.readAhead[policies] = state
                return (found, 0, (next, min(maxWindow, max(1, state.window * 2))))
            }
            let sequential = state.next?.id == asset.id && state.window > 0
            return (nil, sequential ? min(maxWindow, state.window * 2) : initialWindow, nil)
        }
        if let (from, count) = background { startReadAhead(from: from, count: count, policies: policies, readAhead) }
        if let found { return found }
        let batch = try fetch(ahead)
        entries.withLock { (e: inout Entries) in
            keep(key, batch.plan, in: &e)
            keep(batch.ahead.plans, policies, in: &e)
            var state = e.readAhead[policies] ?? ReadAhead()
            state.next = batch.ahead.next
            state.window = ahead
            state.trigger = Self.middle(of: batch.ahead.plans)
            e.readAhead[policies] = state
        }
        return batch.plan
    }

    /// Fetches `count` plans from `from` on in the background and keeps them; the window
    /// moves on only if no fetch moved it meanwhile. A failure keeps nothing (the reads
    /// fetch their plans themselves).
    private func startReadAhead(
        from: PlanCursor, count: Int, policies: Policies,
        _ readAhead: @escaping @Sendable (PlanCursor, Int) throws(ViewLayerError) -> PlansAhead
    ) {
        start { [self] in
            let fetched = try? readAhead(from, count)
            entries.withLock { (e: inout Entries) in
                var state = e.readAhead[policies] ?? ReadAhead()
                state.running = false
                if let fetched {
                    keep(fetched.plans, policies, in: &e)
                    if state.next == from {
                        state.next = fetched.next
                        state.window = count
                        state.trigger = Self.middle(of: fetched.plans)
                    }
                }
                e.readAhead[policies] = state
            }
        }
    }

    /// The plan whose use starts the next read-ahead: halfway through the window.
    private static func middle(of plans: [VersionedPlan]) -> AssetID? {
        plans.isEmpty ? nil : plans[plans.count / 2].version.id
    }

    private func keep(_ plans: [VersionedPlan], _ policies: Policies, in e: inout Entries) {
        for other in plans { keep(Key(version: other.version, policies: policies), other.plan, in: &e) }
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
        let key = Key(version: FileVersion(of: asset), policies: Policies(location: location, metadata: metadata))
        return entries.withLock { $0.plans[key] != nil }
    }
}
