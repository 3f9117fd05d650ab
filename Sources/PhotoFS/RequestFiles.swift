import CFuse
import Dispatch
import Glibc
import PhotoCore
import Synchronization

/// What the daemon hears about requests (for its log line and the desktop notification).
public enum RequestEvent: Sendable {
    case submitted(RequestBroker.Pending)
    case settled(RequestBroker.Pending, PickAnswer)
}

/// The request files' state besides the view tree: the broker, the timer that expires
/// requests, and the replies deferred until an answer (a READ of a pending request is not
/// answered until the request is settled, so the app's `read(2)` blocks without holding a
/// FUSE thread).
final class RequestFiles: Sendable {
    let broker: RequestBroker
    /// Counts GETATTRs of the request files, each of which reports a new mtime, so a read
    /// always refetches the answer (as for `.picker`).
    let ticks = Atomic<Int>(0)
    private let timer = DispatchQueue(label: "photofs.requests")

    /// The request files of `broker` (the view layer's).
    init(broker: RequestBroker) { self.broker = broker }

    /// The size reported while a request is pending: large enough that the kernel sends the
    /// READ (it trims the file at the end of the short reply).
    static let pendingSize = 1 << 20

    /// Schedules the expiry of `pending`; `expired` runs for each request it settled.
    func scheduleExpiry(of pending: RequestBroker.Pending, _ expired: @escaping @Sendable (RequestBroker.Pending) -> Void) {
        let delay = max(0, pending.deadline - Self.now())
        timer.asyncAfter(deadline: .now() + delay) { [broker] in
            for settled in broker.expire(now: Self.now()) { expired(settled) }
        }
    }

    /// Monotonic seconds.
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
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
