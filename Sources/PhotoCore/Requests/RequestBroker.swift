import Dispatch
import Synchronization

/// What the broker tells the daemon about requests (its log line and the desktop
/// notification), through `RequestBroker.events`.
public enum RequestEvent: Sendable {
    case submitted(RequestBroker.Pending)
    case settled(RequestBroker.Pending, PickAnswer)
    /// Taken back: no process of the app had its request file open any more.
    case withdrawn(RequestBroker.Pending)
}

/// Holds the apps' pick requests between the app's write and the person's answer: at most
/// one pending request per app, the answer kept for the app to read until its next request.
///
/// The broker only records and relays; it grants nothing. Grants change through the picker
/// language, by the owner; an answer merely tells the waiting app which names it got.
///
/// It calls nobody back: a reader that waits registers a token (`read`), and each answer
/// is posted with the tokens it answers to `answers`, which the file system's reply thread
/// drains (the kernel's waiting READs and polls); every submission, answer and withdrawal
/// is posted to `events`, which the daemon's notifier drains. A caller that may block (the
/// daemon channel's wait) sleeps in `waitForAnswer`.
public final class RequestBroker: Sendable {
    /// A request waiting for the person.
    public struct Pending: Hashable, Sendable {
        /// Numbers requests of this broker, so an answer cannot settle a later request.
        public let id: Int
        public let scope: PickScope
        /// Monotonic seconds when it was written and when it expires.
        public let submitted: Double
        public let deadline: Double
        /// What the asking app said the pick is for (a dialog's title), shown to the person.
        public let title: String?
        /// Whether the app was made for this request (photofs did not know it), so the
        /// picker can tell the person it is new.
        public var appIsNew = false

        public var app: String { scope.app }
    }

    /// Where an app's request stands.
    public enum Status: Hashable, Sendable {
        /// No request, or the last answer was taken back by a new write.
        case idle
        case pending(Pending)
        case answered(PickAnswer)
    }

    /// Names one registered waiter: its answer is posted under it, and a reader that stops
    /// waiting is taken off by it.
    public struct WaiterToken: Hashable, Sendable {
        let value: Int
    }

    /// One answer for the readers that waited for it.
    public struct Answered: Sendable {
        public let tokens: [WaiterToken]
        public let answer: PickAnswer
    }

    /// The answers of waited-for requests, under the tokens of their readers.
    public let answers = Outbox<Answered>()
    /// Every submission, answer and withdrawal, in order.
    public let events = Outbox<RequestEvent>()

    private struct State {
        var statuses: [String: Status] = [:]
        var waiters: [String: [WaiterToken]] = [:]
        /// Callers blocked in `waitForAnswer`, woken by any answer or withdrawal of the app's request.
        var sleepers: [String: [DispatchSemaphore]] = [:]
        var nextToken = 1
        /// Requests being answered: granted but not yet settled, so nothing else may settle
        /// or withdraw them meanwhile (`claim`).
        var claimed: Set<Int> = []
        /// Per app, the refusals of the current minute: how many were logged and how many not.
        var refusals: [String: RefusalWindow] = [:]
        var nextID = 1
    }

    /// The refusals of one app within one window of `refusalWindow` seconds.
    struct RefusalWindow {
        var start: Double
        var logged = 0
        var unlogged = 0
    }

    /// Refusals logged per app and window: an app that writes malformed requests in a loop
    /// gets a few lines a minute, and a count of the rest, not a line each.
    public static let refusalsLogged = 5
    public static let refusalWindow = 60.0

    private let state = Mutex(State())

    /// The most readers that may wait on one app's request at once.
    public static let maximumWaiters = 64

    public init() {}

    /// Records a request narrowed to `scope`; `busy` while the app has one pending.
    public func submit(_ scope: PickScope, now: Double, title: String? = nil, appIsNew: Bool = false) throws(PickRequestError) -> Pending {
        try state.withLock { (state: inout State) throws(PickRequestError) -> Pending in
            if case .pending = state.statuses[scope.app] { throw .busy }
            let pending = Pending(
                id: state.nextID, scope: scope, submitted: now, deadline: now + Double(scope.request.timeoutSeconds), title: title,
                appIsNew: appIsNew)
            state.nextID += 1
            state.statuses[scope.app] = .pending(pending)
            // Posted under the lock, so that its answer cannot be posted before it.
            events.post(.submitted(pending))
            return pending
        }
    }

    public func status(of app: String) -> Status {
        state.withLock { $0.statuses[app] ?? .idle }
    }

    /// Every pending request, oldest first.
    public func pending() -> [Pending] {
        state.withLock { state in
            state.statuses.values.compactMap { status -> Pending? in
                if case .pending(let pending) = status { return pending }
                return nil
            }.sorted { $0.id < $1.id }
        }
    }

    /// A reader of `app`'s request file: the status now, and when it is pending a waiter is
    /// registered whose answer is posted to `answers` under `token` (unless `register` is
    /// false or too many readers wait already: then `token` is nil).
    public func read(_ app: String, register: Bool) -> (status: Status, token: WaiterToken?) {
        state.withLock { state in
            let status = state.statuses[app] ?? .idle
            guard register, case .pending = status, state.waiters[app, default: []].count < Self.maximumWaiters else {
                return (status, nil)
            }
            let token = WaiterToken(value: state.nextToken)
            state.nextToken += 1
            state.waiters[app, default: []].append(token)
            return (status, token)
        }
    }

    /// Settles `app`'s pending request (only request `id`, when given) and wakes its readers.
    /// A claimed request is settled only by its claim (`claimed` true).
    public func settle(_ app: String, id: Int? = nil, with answer: PickAnswer, claimed: Bool = false) throws(RequestBrokerError) -> Pending
    {
        try state.withLock { (state: inout State) throws(RequestBrokerError) -> Pending in
            guard case .pending(let pending) = state.statuses[app], id == nil || id == pending.id else {
                throw .noPendingRequest(app)
            }
            guard claimed == state.claimed.contains(pending.id) else { throw .beingAnswered(app) }
            state.claimed.remove(pending.id)
            state.statuses[app] = .answered(answer)
            wake(app, with: answer, in: &state)
            events.post(.settled(pending, answer))
            return pending
        }
    }

    /// Posts `answer` for `app`'s waiting readers and wakes its sleepers (under the lock, so
    /// that answers are posted in the order they were given).
    private func wake(_ app: String, with answer: PickAnswer, in state: inout State) {
        if let tokens = state.waiters.removeValue(forKey: app), !tokens.isEmpty { answers.post(Answered(tokens: tokens, answer: answer)) }
        for sleeper in state.sleepers.removeValue(forKey: app) ?? [] { sleeper.signal() }
    }

    /// Blocks the calling thread until `app`'s request `id` is no longer pending, at most
    /// `seconds`; returns whether it was settled or withdrawn by then. For callers that may
    /// block (the daemon channel's wait), never for a file system request.
    public func waitForAnswer(_ app: String, id: Int, seconds: Double) -> Bool {
        let sleeper = DispatchSemaphore(value: 0)
        let waits = state.withLock { state -> Bool in
            guard case .pending(let pending) = state.statuses[app], pending.id == id else { return false }
            state.sleepers[app, default: []].append(sleeper)
            return true
        }
        guard waits else { return true }
        if sleeper.wait(timeout: .now() + max(0, seconds)) == .success { return true }
        return state.withLock { state in
            guard let index = state.sleepers[app]?.firstIndex(where: { $0 === sleeper }) else { return true }
            state.sleepers[app]?.remove(at: index)
            return false
        }
    }

    /// Reserves `app`'s pending request `id` for one answer: until `settle(claimed: true)`
    /// or `release`, it cannot expire, be cancelled or be withdrawn, so grants made for it
    /// and its answer land together.
    public func claim(_ app: String, id: Int) throws(RequestBrokerError) -> Pending {
        try state.withLock { (state: inout State) throws(RequestBrokerError) -> Pending in
            guard case .pending(let pending) = state.statuses[app], pending.id == id else { throw .noPendingRequest(app) }
            guard state.claimed.insert(id).inserted else { throw .beingAnswered(app) }
            return pending
        }
    }

    /// Gives up a claim whose grants did not land: the request waits again as before.
    public func release(_ id: Int) {
        _ = state.withLock { $0.claimed.remove(id) }
    }

    /// Records that a write of `app`'s request was refused because of `reason`: unless a
    /// request is pending (whose answer stays what the file reads), the file reads
    /// `refused: REASON` until the next request. Returns the log line to write, or nil
    /// when this app already had its lines for the current window.
    public func refuse(_ app: String, reason: String, now: Double) -> String? {
        state.withLock { state in
            if case .pending = state.statuses[app] {} else { state.statuses[app] = .answered(.refused(reason)) }
            var window = state.refusals[app] ?? RefusalWindow(start: now)
            var line: String?
            if now - window.start >= Self.refusalWindow {
                let earlier = window.unlogged
                window = RefusalWindow(start: now)
                if earlier > 0 { line = "(\(earlier) more refused request\(earlier == 1 ? "" : "s") of app \(app) not logged) " }
            }
            if window.logged < Self.refusalsLogged {
                window.logged += 1
                let last = window.logged == Self.refusalsLogged ? "; further refusals this minute are counted, not logged" : ""
                line = (line ?? "") + "request of app \(app) refused: \(reason)\(last)"
            } else {
                window.unlogged += 1
            }
            state.refusals[app] = window
            return line
        }
    }

    /// Answers `expired` to every request whose deadline passed; returns them.
    public func expire(now: Double) -> [Pending] {
        let due = pending().filter { $0.deadline <= now }
        return due.compactMap { pending in try? settle(pending.app, id: pending.id, with: .expired) }
    }

    /// Takes back `app`'s pending request `id` (nobody is left to read its answer): the
    /// request file is idle again, as if it had never been written.
    @discardableResult
    public func withdraw(_ app: String, id: Int) -> Pending? {
        state.withLock { (state: inout State) -> Pending? in
            guard case .pending(let pending) = state.statuses[app], pending.id == id, !state.claimed.contains(id) else { return nil }
            state.statuses[app] = .idle
            wake(app, with: .cancelled, in: &state)
            events.post(.withdrawn(pending))
            return pending
        }
    }

    /// Stops waiting on behalf of one reader (its READ was interrupted): no answer is posted
    /// under `token`. Returns whether it was still registered.
    public func stopWaiting(_ app: String, token: WaiterToken) -> Bool {
        state.withLock { state in
            guard var list = state.waiters[app], let index = list.firstIndex(of: token) else { return false }
            list.remove(at: index)
            state.waiters[app] = list
            return true
        }
    }

    /// The earliest deadline of a pending request, for the timer.
    public var nextDeadline: Double? { pending().map(\.deadline).min() }
}

/// Why an answer could not be given.
public enum RequestBrokerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app has no pending request (or not the one named).
    case noPendingRequest(String)
    /// The request is being answered by someone else right now.
    case beingAnswered(String)

    public var description: String {
        switch self {
        case .noPendingRequest(let app): "app '\(app)' has no pending request"
        case .beingAnswered(let app): "the request of app '\(app)' is being answered"
        }
    }
}
