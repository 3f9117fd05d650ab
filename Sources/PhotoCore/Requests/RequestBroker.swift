import Synchronization

/// Holds the apps' pick requests between the app's write and the person's answer: at most
/// one pending request per app, the answer kept for the app to read until its next request.
///
/// The broker only records and relays; it grants nothing. Grants change through the picker
/// language, by the owner; an answer merely tells the waiting app which names it got.
public final class RequestBroker: Sendable {
    /// A request waiting for the person.
    public struct Pending: Hashable, Sendable {
        /// Numbers requests of this broker, so an answer cannot settle a later request.
        public let id: Int
        public let scope: PickScope
        /// Monotonic seconds when it was written and when it expires.
        public let submitted: Double
        public let deadline: Double

        public var app: String { scope.app }
    }

    /// Where an app's request stands.
    public enum Status: Hashable, Sendable {
        /// No request, or the last answer was taken back by a new write.
        case idle
        case pending(Pending)
        case answered(PickAnswer)
    }

    /// Called once with the answer of the request a reader waited for.
    public typealias Waiter = @Sendable (PickAnswer) -> Void

    private struct State {
        var statuses: [String: Status] = [:]
        var waiters: [String: [Waiter]] = [:]
        var nextID = 1
    }

    private let state = Mutex(State())

    /// The most readers that may wait on one app's request at once.
    public static let maximumWaiters = 64

    public init() {}

    /// Records a request narrowed to `scope`; `busy` while the app has one pending.
    public func submit(_ scope: PickScope, now: Double) throws(PickRequestError) -> Pending {
        try state.withLock { (state: inout State) throws(PickRequestError) -> Pending in
            if case .pending = state.statuses[scope.app] { throw .busy }
            let pending = Pending(id: state.nextID, scope: scope, submitted: now, deadline: now + Double(scope.request.timeoutSeconds))
            state.nextID += 1
            state.statuses[scope.app] = .pending(pending)
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

    /// A reader of `app`'s request file: the status now, and when it is pending, `waiter`
    /// is registered and called once with the answer (unless `register` is false or too
    /// many readers wait already, which `registered` tells).
    public func read(_ app: String, register: Bool, waiter: @escaping Waiter) -> (status: Status, registered: Bool) {
        state.withLock { state in
            let status = state.statuses[app] ?? .idle
            guard register, case .pending = status, state.waiters[app, default: []].count < Self.maximumWaiters else {
                return (status, false)
            }
            state.waiters[app, default: []].append(waiter)
            return (status, true)
        }
    }

    /// Settles `app`'s pending request (only request `id`, when given) and wakes its readers.
    public func settle(_ app: String, id: Int? = nil, with answer: PickAnswer) throws(RequestBrokerError) -> Pending {
        let (pending, waiters) = try state.withLock { (state: inout State) throws(RequestBrokerError) -> (Pending, [Waiter]) in
            guard case .pending(let pending) = state.statuses[app], id == nil || id == pending.id else {
                throw .noPendingRequest(app)
            }
            state.statuses[app] = .answered(answer)
            return (pending, state.waiters.removeValue(forKey: app) ?? [])
        }
        for waiter in waiters { waiter(answer) }
        return pending
    }

    /// Answers `expired` to every request whose deadline passed; returns them.
    public func expire(now: Double) -> [Pending] {
        let due = pending().filter { $0.deadline <= now }
        return due.compactMap { pending in try? settle(pending.app, id: pending.id, with: .expired) }
    }

    /// The earliest deadline of a pending request, for the timer.
    public var nextDeadline: Double? { pending().map(\.deadline).min() }
}

/// Why an answer could not be given.
public enum RequestBrokerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The app has no pending request (or not the one named).
    case noPendingRequest(String)

    public var description: String {
        switch self {
        case .noPendingRequest(let app): "app '\(app)' has no pending request"
        }
    }
}
