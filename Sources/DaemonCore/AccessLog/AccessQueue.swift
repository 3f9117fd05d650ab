import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// The access log's side of the READ path: a bounded in-memory queue of (app, asset, time)
/// that the READ handler appends to and `AccessLogFlusher` empties.
///
/// Appending takes a lock held only to append one value into storage reserved up front
/// (no allocation, no I/O, no SQLite); when the queue is full the read is counted as
/// dropped instead, so READ never waits for the flusher. Half full, it wakes the flusher
/// early.
public final class AccessQueue: AccessRecorder {
    /// One READ an app's view served.
    public struct Event: Sendable {
        public var app: String
        public var asset: AssetID
        /// When it was served (CLOCK_REALTIME, ns since the epoch).
        public var nanoseconds: Int64
    }

    /// The most events held between two flushes.
    public let capacity: Int
    private let pending: Mutex<[Event]>
    private let droppedCount = Atomic<Int>(0)
    /// Signalled when the queue is half full, so the flusher runs before it fills.
    let wake = DispatchSemaphore(value: 0)

    public init(capacity: Int = 16_384) {
        precondition(capacity > 1, "an access queue holds at least two events")
        self.capacity = capacity
        var storage: [Event] = []
        storage.reserveCapacity(capacity)
        self.pending = Mutex(storage)
    }

    public func recordRead(in scope: ViewScope, of asset: AssetID) {
        guard case .app(let app) = scope else { return }
        let event = Event(app: app, asset: asset, nanoseconds: SystemClock.wallNanoseconds())
        let capacity = self.capacity
        let count = pending.withLock { (events: inout [Event]) -> Int in
            guard events.count < capacity else { return -1 }
            events.append(event)
            return events.count
        }
        if count < 0 {
            droppedCount.add(1, ordering: .relaxed)
        } else if count == capacity / 2 {
            wake.signal()
        }
    }

    /// How many reads were not queued because the queue was full, since the start.
    public var dropped: Int { droppedCount.load(ordering: .relaxed) }

    /// Swaps the queued events into `spare`, which must be empty and should have
    /// `capacity` reserved: the queue then appends into the spare's storage, so taking a
    /// batch allocates nothing under the lock.
    public func drain(into spare: inout [Event]) {
        pending.withLock { (events: inout [Event]) in swap(&events, &spare) }
    }
}
