import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// The access log's background thread: every `interval` (a second; sooner when the queue is half
/// full) it takes the queued reads, merges them per (app, asset, UTC day) and writes the
/// batch to the store in one transaction; it prunes entries older than the retention at
/// start and then once a day. A batch the store refused is kept for the next round (up to
/// the queue's capacity in entries, then counted as dropped).
public final class AccessLogFlusher: Sendable {
    /// What the loop keeps between rounds.
    private struct Round {
        var spare: [AccessQueue.Event] = []
        /// Entries not yet written, by (app, asset, day).
        var unwritten: [Key: AccessLogEntry] = [:]
        var lastPrune: Int64 = 0
        var reportedDrops = 0
    }

    private struct Key: Hashable {
        var app: String
        var asset: AssetID
        var day: Int
    }

    public let queue: AccessQueue
    private let store: any AccessLogStore
    /// Entries whose last read is older than this many nanoseconds are deleted.
    public let retentionNanoseconds: Int64
    /// Seconds between rounds when the queue is not half full.
    private static let interval: Double = 1
    private let log: @Sendable (String) -> Void
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private let round = Mutex(Round())

    public init(
        queue: AccessQueue, store: any AccessLogStore, retentionNanoseconds: Int64, log: @escaping @Sendable (String) -> Void
    ) {
        self.queue = queue
        self.store = store
        self.retentionNanoseconds = retentionNanoseconds
        self.log = log
        round.withLock { $0.spare.reserveCapacity(queue.capacity) }
    }

    /// Prunes once, then starts the loop on its own thread.
    public func start() {
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        pruneIfDue(now: Self.now())
        DispatchQueue(label: "photofs.accesslog").async { [self] in
            while true {
                _ = queue.wake.wait(timeout: .now() + Self.interval)
                let last = stopping.load(ordering: .acquiring)
                flush()
                pruneIfDue(now: Self.now())
                if last { break }
            }
            finished.signal()
        }
    }

    /// Writes what is queued and ends the loop (waits for it); safe to call twice.
    public func stop() {
        guard started.load(ordering: .acquiring), !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        queue.wake.signal()
        finished.wait()
    }

    /// Takes the queued reads, merges them and writes them (and what an earlier round could not).
    func flush() {
        round.withLock { (round: inout Round) in
            queue.drain(into: &round.spare)
            var overflow = 0
            for event in round.spare {
                let day = UTCDay.day(ofNanoseconds: event.nanoseconds)
                let key = Key(app: event.app, asset: event.asset, day: day)
                if var entry = round.unwritten[key] {
                    entry.firstReadNanoseconds = min(entry.firstReadNanoseconds, event.nanoseconds)
                    entry.lastReadNanoseconds = max(entry.lastReadNanoseconds, event.nanoseconds)
                    entry.reads += 1
                    round.unwritten[key] = entry
                } else if round.unwritten.count < queue.capacity {
                    round.unwritten[key] = AccessLogEntry(
                        app: event.app, asset: event.asset, day: day, firstReadNanoseconds: event.nanoseconds,
                        lastReadNanoseconds: event.nanoseconds, reads: 1)
                } else {
                    overflow += 1
                }
            }
            if overflow > 0 {
                log("access log: \(overflow) reads were not recorded (the catalog has refused writes for a while)")
            }
            round.spare.removeAll(keepingCapacity: true)
            let dropped = queue.dropped
            if dropped > round.reportedDrops {
                log("access log: \(dropped) reads were not recorded since the start (the queue was full)")
                round.reportedDrops = dropped
            }
            guard !round.unwritten.isEmpty else { return }
            do throws(AccessLogStoreError) {
                try store.add(Array(round.unwritten.values))
                round.unwritten.removeAll(keepingCapacity: true)
            } catch {
                log("access log: cannot write \(round.unwritten.count) entries (kept for the next try): \(error)")
            }
        }
    }

    private func pruneIfDue(now: Int64) {
        round.withLock { (round: inout Round) in
            guard now - round.lastPrune >= 86_400 * 1_000_000_000 else { return }
            do throws(AccessLogStoreError) {
                let removed = try store.prune(before: now - retentionNanoseconds)
                round.lastPrune = now
                if removed > 0 { log("access log: removed \(removed) entries older than the retention") }
            } catch {
                log("access log: cannot remove old entries (tried again later): \(error)")
            }
        }
    }

    private static func now() -> Int64 { SystemClock.wallNanoseconds() }
}
