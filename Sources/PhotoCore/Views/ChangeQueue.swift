import Dispatch
import Synchronization
import SystemKit

/// The daemon's `ChangeSink`: each change of the live state is queued here, once, and the
/// file system drains the queue on a thread of its own (FuseKit's `ChangeDrain`: the
/// kernel's invalidations, the compatible JPEGs to make). The owner of the state publishes
/// into this queue and never calls the file system, so a `.picker` write that reached the
/// owner through the kernel does not call back into the adapter it came from.
///
/// The publisher waits for its change to be delivered (the kernel told what to forget), up
/// to `wait` seconds: a `.picker` write returns only once a revoked file is gone. While a
/// library change is made and until it is queued, it counts as under way (`isChanging`),
/// and every queued change moves `epoch` before the next one may begin: the adapter reads
/// both around each reply that may cross a change and drops such a reply again.
///
/// Made before the file system (the first load publishes before the views are served);
/// nothing is queued, and nobody waited for, until the file system subscribes.
public final class ChangeQueue: ChangeSink {
    /// One queued change, with the wake of the publisher waiting for it.
    public struct Entry: Sendable {
        public let change: StateChange
        private let done: DispatchSemaphore

        init(change: StateChange) {
            self.change = change
            self.done = DispatchSemaphore(value: 0)
        }

        /// Tells the publisher that the kernel was told (or that nothing more will be done).
        public func delivered() { done.signal() }

        /// Waits for `delivered`, at most `seconds`; returns whether it came.
        func waitDelivered(seconds: Double) -> Bool { done.wait(timeout: .now() + seconds) == .success }
    }

    /// How long a change waits for the kernel to take its invalidations.
    public static let wait: Double = 2
    private let outbox = Outbox<Entry>()
    /// How many library changes are under way.
    private let changing = Atomic<Int>(0)
    /// Counts the queued changes.
    private let queued = Atomic<UInt64>(0)
    private let log: @Sendable (String) -> Void

    public init(log: @escaping @Sendable (String) -> Void) {
        self.log = log
    }

    /// Counts the views' changes: read before the views an answer is made from.
    public var epoch: UInt64 { queued.load(ordering: .sequentiallyConsistent) }

    /// Whether a library change is being made or queued right now.
    public var isChanging: Bool { changing.load(ordering: .sequentiallyConsistent) > 0 }

    public func begin(_ kind: StateChange.Kind) {
        if kind == .library { changing.add(1, ordering: .sequentiallyConsistent) }
    }

    public func end(_ kind: StateChange.Kind, forgetting forget: ViewTreeChanges?) {
        if let forget { enqueue(StateChange(kind: kind, forget: forget)) }
        // Counted down only after the epoch moved, so that no reply falls between. An
        // access change has no bracket: its invalidations read only the apps' parts, which
        // are built whole.
        if kind == .library { changing.subtract(1, ordering: .sequentiallyConsistent) }
        if let forget, StateChange(kind: kind, forget: forget).releasesFreedMemory { FreedMemory.release() }
    }

    /// Moves the epoch, queues `change` for the subscriber and waits up to `wait` seconds
    /// for it to be delivered (not for empty changes, which only drop kept listings).
    private func enqueue(_ change: StateChange) {
        queued.add(1, ordering: .sequentiallyConsistent)
        let entry = Entry(change: change)
        guard outbox.post(entry), !change.forget.isEmpty else { return }
        if !entry.waitDelivered(seconds: Self.wait) {
            log(
                "invalidation of \(change.forget.removedEntries.count) names and \(change.forget.invalidatedInodes.count) inodes is taking longer than \(Self.wait) s; continuing"
            )
        }
    }

    /// Hands pages freed by other work than a change back to the system (the startup
    /// scan's walk, once it is done).
    public func releaseFreedMemory() {
        FreedMemory.release()
    }

    /// Starts queueing changes for a subscriber that drains them with `take`.
    public func subscribe() { outbox.subscribe() }

    /// Waits for queued changes and takes them, oldest first; nil once closed.
    public func take() -> [Entry]? { outbox.take() }

    /// Ends the subscription.
    public func close() { outbox.close() }
}
