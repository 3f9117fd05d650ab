import CFuse
import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// READs and polls of pending requests, kept until the request is settled or the reader
/// gives up, and the thread that answers them.
///
/// Such a READ is the reader's own synchronous request (request files are opened with
/// direct I/O, so no page of the page cache is locked while it waits): a signal to the
/// reader makes the kernel send INTERRUPT, and the READ is answered EINTR at once, so
/// `kill -9` ends a waiting reader immediately and nothing else ever waits behind it.
/// Exactly one of the answer and the interrupt replies.
///
/// The request broker never calls in here: it posts each answer with its waiters' tokens
/// to `RequestBroker.answers`, which this drains on a thread of its own (`start`) and
/// answers the READs and polls kept under those tokens. An answer may arrive before its
/// READ is kept (the broker registered the waiter inside the layer's read): it is held
/// until then (`early`).
final class DeferredReads: Sendable {
    /// One READ waiting for an answer.
    final class Read: Sendable {
        let request: DeferredRequest
        let size: Int
        let offset: Int
        let id: Int
        let app: String
        let token: RequestBroker.WaiterToken
        /// Set by whoever replies first.
        private let replied = Atomic<Bool>(false)

        init(request: fuse_req_t, size: Int, offset: Int, id: Int, app: String, token: RequestBroker.WaiterToken) {
            self.request = DeferredRequest(request: request)
            self.size = size
            self.offset = offset
            self.id = id
            self.app = app
            self.token = token
        }

        /// Whether this caller is the one to reply.
        func claim() -> Bool {
            replied.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged
        }

        /// Replies with the part of `answer` at the READ's offset (the caller claimed it).
        func reply(_ answer: PickAnswer) {
            let text = answer.bytes
            let start = min(max(0, offset), text.count)
            let end = min(text.count, start + size)
            text[start..<end].withUnsafeBytes { bytes in
                _ = fuse_reply_buf(request.request, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
            }
        }
    }

    private struct State {
        var next = 1
        /// By number, from before the interrupt is armed until replied.
        var open: [Int: Read] = [:]
        /// The armed READs by the token the broker answers under.
        var byToken: [RequestBroker.WaiterToken: Read] = [:]
        var polls: [RequestBroker.WaiterToken: DeferredPoll] = [:]
        /// Answers that arrived before their READ or poll was kept.
        var early: [RequestBroker.WaiterToken: PickAnswer] = [:]
    }

    private let state = Mutex(State())
    private let broker: RequestBroker

    init(broker: RequestBroker) { self.broker = broker }

    /// Subscribes to the broker's answers and answers them on a thread of its own until
    /// `stop`.
    func start() {
        broker.answers.subscribe()
        DispatchQueue(label: "photofs.request-replies").async { [self] in
            while let batch = broker.answers.take() {
                for answered in batch {
                    for token in answered.tokens { deliver(answered.answer, to: token) }
                }
            }
        }
    }

    /// Ends the reply thread (the file system is going away).
    func stop() {
        broker.answers.close()
    }

    /// Keeps the READ `request` of a pending request of `app`, whose waiter the broker
    /// registered under `token`, until it is answered or interrupted.
    func wait(_ request: fuse_req_t, size: Int, offset: Int, app: String, token: RequestBroker.WaiterToken) {
        let read = state.withLock { state in
            let read = Read(request: request, size: size, offset: offset, id: state.next, app: app, token: token)
            state.next += 1
            state.open[read.id] = read
            return read
        }
        // Armed before an answer can find it, so an answer never frees the request while
        // libfuse is told about its interrupt; an interrupt that came already answers now.
        fuse_req_interrupt_func(read.request.request, DeferredReads.onInterrupt, UnsafeMutableRawPointer(bitPattern: read.id))
        let early = state.withLock { state -> PickAnswer? in
            guard state.open[read.id] != nil else { return nil }
            if let answer = state.early.removeValue(forKey: token) { return answer }
            state.byToken[token] = read
            return nil
        }
        if let early, read.claim() {
            read.reply(early)
            finish(read)
        }
    }

    /// Keeps the poll handle `handle`, notified once the answer under `token` arrives.
    func notifyLater(_ handle: OpaquePointer, token: RequestBroker.WaiterToken) {
        let deferred = DeferredPoll(handle: handle)
        let answered = state.withLock { state -> Bool in
            if state.early.removeValue(forKey: token) != nil { return true }
            state.polls[token] = deferred
            return false
        }
        if answered { Self.notify(deferred) }
    }

    /// Answers what waits under `token` (the reply thread).
    private func deliver(_ answer: PickAnswer, to token: RequestBroker.WaiterToken) {
        let (read, poll) = state.withLock { state -> (Read?, DeferredPoll?) in
            if let read = state.byToken.removeValue(forKey: token) { return (read, nil) }
            if let poll = state.polls.removeValue(forKey: token) { return (nil, poll) }
            state.early[token] = answer
            return (nil, nil)
        }
        if let poll { Self.notify(poll) }
        guard let read, read.claim() else { return }
        read.reply(answer)
        finish(read)
    }

    private static func notify(_ poll: DeferredPoll) {
        fuse_lowlevel_notify_poll(poll.handle)
        fuse_pollhandle_destroy(poll.handle)
    }

    /// Forgets `read` (it was replied to).
    private func finish(_ read: Read) {
        state.withLock { state in
            state.open.removeValue(forKey: read.id)
            if state.byToken[read.token] === read { state.byToken.removeValue(forKey: read.token) }
        }
    }

    /// The READ numbered `id` was interrupted: unless its answer got there first, it stops
    /// waiting and is answered EINTR.
    func interrupted(_ id: Int) {
        guard let read = state.withLock({ $0.open[id] }), read.claim() else { return }
        if !broker.stopWaiting(read.app, token: read.token) {
            // Answered meanwhile: the answer may be held for a READ that is gone.
            state.withLock { _ = $0.early.removeValue(forKey: read.token) }
        }
        fuse_reply_err(read.request.request, Errno.interrupted.rawValue)
        finish(read)
    }

    private static let onInterrupt: fuse_interrupt_func_t = { request, data in
        guard let request, let fileSystem = PhotoFileSystem.from(request) else { return }
        fileSystem.requests.reads.interrupted(Int(bitPattern: data))
    }
}
