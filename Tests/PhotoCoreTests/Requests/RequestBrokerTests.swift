import PhotoCore
import Synchronization
import Testing

@Suite("Request broker")
struct RequestBrokerTests {
    func scope(_ app: String, timeout: Int = 60) throws -> PickScope {
        try PickScope(request: PickRequest(limit: 2, timeoutSeconds: timeout), app: App(name: app), appFilter: .everything, grantCount: 0)
    }

    @Test func onePendingRequestPerApp() throws {
        let broker = RequestBroker()
        let first = try broker.submit(try scope("editor"), now: 0)
        #expect(throws: PickRequestError.busy) { try broker.submit(try scope("editor"), now: 1) }
        let other = try broker.submit(try scope("viewer"), now: 2)
        #expect(broker.pending().map(\.id) == [first.id, other.id])
        #expect(broker.status(of: "editor") == .pending(first))
    }

    @Test func answerWakesEveryWaiterOnceAndStaysReadable() throws {
        let broker = RequestBroker()
        let pending = try broker.submit(try scope("editor"), now: 0)
        let heard = Mutex<[PickAnswer]>([])
        for _ in 0..<3 {
            let (status, registered) = broker.read("editor", register: true) { answer in heard.withLock { $0.append(answer) } }
            #expect(status == .pending(pending))
            #expect(registered != nil)
        }
        let answer = PickAnswer.selected([Array("b.jpg".utf8), Array("a.jpg".utf8)])
        _ = try broker.settle("editor", id: pending.id, with: answer)
        #expect(heard.withLock { $0 } == [answer, answer, answer])
        #expect(broker.status(of: "editor") == .answered(answer))
        #expect(broker.read("editor", register: true) { _ in Issue.record("called after the answer") }.token == nil)
        // Settled once: a second answer (or one for another request id) is refused.
        #expect(throws: RequestBrokerError.noPendingRequest("editor")) { try broker.settle("editor", with: .cancelled) }
        // A new request replaces the kept answer.
        _ = try broker.submit(try scope("editor"), now: 5)
        #expect(throws: RequestBrokerError.noPendingRequest("editor")) { try broker.settle("editor", id: pending.id, with: .cancelled) }
    }

    @Test func nonBlockingReadersAreNotRegistered() throws {
        let broker = RequestBroker()
        _ = try broker.submit(try scope("editor"), now: 0)
        #expect(broker.read("editor", register: false) { _ in Issue.record("not registered") }.token == nil)
        let idle = broker.read("idle", register: true) { _ in Issue.record("nothing pending") }
        #expect(idle.status == .idle && idle.token == nil)
    }

    @Test func expiryAnswersExpiredAtTheDeadlineOnly() throws {
        let broker = RequestBroker()
        let short = try broker.submit(try scope("a", timeout: 5), now: 0)
        _ = try broker.submit(try scope("b", timeout: 50), now: 0)
        #expect(broker.nextDeadline == 5)
        #expect(broker.expire(now: 4.9).isEmpty)
        #expect(broker.expire(now: 5).map(\.id) == [short.id])
        #expect(broker.status(of: "a") == .answered(.expired))
        #expect(broker.pending().map(\.app) == ["b"])
    }

    @Test func answerTextEscapesNames() {
        let answer = PickAnswer.selected([Array("a b.jpg".utf8), Array("new\nline\\.jpg".utf8)])
        #expect(String(decoding: answer.bytes, as: UTF8.self) == "selected 2\na b.jpg\nnew\\nline\\\\.jpg\n")
        #expect(PickAnswer.cancelled.bytes == Array("cancelled\n".utf8))
        #expect(PickAnswer.expired.bytes == Array("expired\n".utf8))
    }
}
