import CFuse
import PhotoCore
import Synchronization
import SystemKit

/// READs of pending requests, kept until the request is settled or the reader gives up.
///
/// Such a READ is the reader's own synchronous request (request files are opened with
/// direct I/O, so no page of the page cache is locked while it waits): a signal to the
/// reader makes the kernel send INTERRUPT, and the READ is answered EINTR at once, so
/// `kill -9` ends a waiting reader immediately and nothing else ever waits behind it.
/// Exactly one of the answer and the interrupt replies.
final class DeferredReads: Sendable {
    /// One READ waiting for an answer.
    final class Read: Sendable {
        let request: DeferredRequest
        let size: Int
        let offset: Int
        let id: Int
        /// Set by whoever replies first.
        private let replied = Atomic<Bool>(false)
        /// The broker registration, once made (to take it back on an interrupt).
        let waiting = Mutex<(app: String, token: RequestBroker.WaiterToken)?>(nil)

        init(request: fuse_req_t, size: Int, offset: Int, id: Int) {
            self.request = DeferredRequest(request: request)
            self.size = size
            self.offset = offset
            self.id = id
        }

        /// Whether this caller is the one to reply.
        func claim() -> Bool {
            replied.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }
    }

    private let reads = Mutex<(next: Int, open: [Int: Read])>((1, [:]))

    /// A new deferred READ (not yet armed for interrupts).
    func make(_ request: fuse_req_t, size: Int, offset: Int) -> Read {
        reads.withLock { reads in
            let read = Read(request: request, size: size, offset: offset, id: reads.next)
            reads.next += 1
            reads.open[read.id] = read
            return read
        }
    }

    /// Forgets `read` (it was replied to).
    func finish(_ read: Read) {
        _ = reads.withLock { $0.open.removeValue(forKey: read.id) }
    }

    /// Registers `read` for INTERRUPT: libfuse calls back (at once, if the interrupt came
    /// already) with the read's number, and `interrupted` answers it.
    func armInterrupt(_ read: Read) {
        fuse_req_interrupt_func(read.request.request, DeferredReads.onInterrupt, UnsafeMutableRawPointer(bitPattern: read.id))
    }

    /// The READ numbered `id` was interrupted: unless its answer got there first, it stops
    /// waiting and is answered EINTR.
    func interrupted(_ id: Int, broker: RequestBroker) {
        guard let read = reads.withLock({ $0.open[id] }), read.claim() else { return }
        if let waiting = read.waiting.withLock({ $0 }) { _ = broker.stopWaiting(waiting.app, token: waiting.token) }
        fuse_reply_err(read.request.request, Errno.interrupted.rawValue)
        finish(read)
    }

    private static let onInterrupt: fuse_interrupt_func_t = { request, data in
        guard let request, let fileSystem = PhotoFileSystem.from(request) else { return }
        fileSystem.requests.reads.interrupted(Int(bitPattern: data), broker: fileSystem.requests.broker)
    }
}
