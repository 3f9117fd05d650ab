import CFuse
import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// The request files' state besides the view tree: the broker, the timer that expires
/// requests, and the replies deferred until an answer (a READ of a pending request is not
/// answered until the request is settled, so the app's `read(2)` blocks without holding a
/// FUSE thread).
final class RequestFiles: Sendable {
    let broker: RequestBroker
    /// Counts GETATTRs of the request files, each of which reports a new mtime, so a read
    /// always refetches the answer (as for `.picker`).
    let ticks = Atomic<Int>(0)
    /// READs and polls waiting for answers.
    let reads: DeferredReads
    /// Per app, the open descriptors of its request file, and which pending requests were
    /// written to a request file (only those are withdrawn when their app is gone).
    private let descriptors = Mutex<(open: [String: Int], written: Set<Int>)>(([:], []))
    private let timer = DispatchQueue(label: "photofs.requests")

    /// How long a request written to a request file waits with no descriptor of that file
    /// open before it is withdrawn: long enough for `echo … > .request; cat .request`.
    static let withdrawalDelay = 1.5

    /// The request files of `broker` (the view layer's).
    init(broker: RequestBroker) {
        self.broker = broker
        self.reads = DeferredReads(broker: broker)
    }

    /// The size reported while a request is pending: large enough that the kernel sends the
    /// READ (it trims the file at the end of the short reply).
    static let pendingSize = 1 << 20

    /// Schedules the expiry of `pending` (the broker posts the answer and the event).
    func scheduleExpiry(of pending: RequestBroker.Pending) {
        let delay = max(0, pending.deadline - Self.now())
        timer.asyncAfter(deadline: .now() + delay) { [broker] in
            _ = broker.expire(now: Self.now())
        }
    }

    /// Notes a request that came through the app's request file.
    func written(_ pending: RequestBroker.Pending) {
        let waiting = Set(broker.pending().map(\.id))
        descriptors.withLock { state in
            state.written = state.written.filter { waiting.contains($0) }
            state.written.insert(pending.id)
        }
    }

    /// A descriptor of `app`'s request file was opened.
    func opened(_ app: String) {
        descriptors.withLock { $0.open[app, default: 0] += 1 }
    }

    /// A descriptor of `app`'s request file was closed (RELEASE: the last close of it, also
    /// when its process died). When none is left, the app's written request is withdrawn
    /// after `withdrawalDelay` unless one was opened again: nobody is left to read the
    /// answer, so nobody should be asked (the broker posts the withdrawal).
    func closed(_ app: String) {
        let left = descriptors.withLock { state -> Int in
            let count = max(0, state.open[app, default: 0] - 1)
            state.open[app] = count == 0 ? nil : count
            return count
        }
        guard left == 0 else { return }
        timer.asyncAfter(deadline: .now() + Self.withdrawalDelay) { [self] in
            guard case .pending(let pending) = broker.status(of: app) else { return }
            let gone = descriptors.withLock { state -> Bool in
                guard state.open[app] == nil, state.written.contains(pending.id) else { return false }
                state.written.remove(pending.id)
                return true
            }
            if gone { broker.withdraw(app, id: pending.id) }
        }
    }

    /// Monotonic seconds.
    static func now() -> Double {
        SystemClock.monotonicSeconds()
    }
}

/// A FUSE request kept for a later reply: libfuse lets any thread reply, once.
struct DeferredRequest: @unchecked Sendable {
    let request: fuse_req_t
}

/// A poll handle kept until the answer: notified once, then destroyed.
struct DeferredPoll: @unchecked Sendable {
    let handle: OpaquePointer
}
