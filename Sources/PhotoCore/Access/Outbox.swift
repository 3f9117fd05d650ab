import Dispatch
import Synchronization

/// A queue that a module filling it and a module above it in the graph share: the
/// publisher only appends (`post`) and never calls the subscriber, and the subscriber takes
/// what was queued on a thread of its own (`take`), sleeping until something arrives. So a
/// call that publishes returns without running anything of the module above it.
///
/// Nothing is kept while nobody subscribed: a publisher used without a subscriber (a test,
/// a tool) queues nothing.
public final class Outbox<Entry: Sendable>: Sendable {
    private struct State {
        var entries: [Entry] = []
        var subscribed = false
        var closed = false
    }

    private let state = Mutex(State())
    /// Signalled once per post (and at close): the subscriber's wake.
    private let ready = DispatchSemaphore(value: 0)

    public init() {}

    /// Starts keeping what is posted, for a subscriber that drains it with `take`.
    public func subscribe() {
        state.withLock { state in
            state.subscribed = true
            state.closed = false
        }
    }

    /// Queues `entry` for the subscriber, when there is one; returns whether it was queued.
    @discardableResult
    public func post(_ entry: Entry) -> Bool {
        let queued = state.withLock { state -> Bool in
            guard state.subscribed, !state.closed else { return false }
            state.entries.append(entry)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    /// Waits until something is queued and takes all of it, oldest first; nil once the
    /// outbox was closed and everything queued before was taken.
    public func take() -> [Entry]? {
        while true {
            let (taken, closed) = state.withLock { state -> ([Entry], Bool) in
                defer { state.entries = [] }
                return (state.entries, state.closed)
            }
            if !taken.isEmpty { return taken }
            if closed { return nil }
            ready.wait()
        }
    }

    /// Ends the subscription: nothing more is queued, and `take` returns nil once empty.
    public func close() {
        state.withLock { state in
            state.closed = true
            state.subscribed = false
        }
        ready.signal()
    }
}
