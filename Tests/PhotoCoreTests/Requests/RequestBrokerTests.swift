import Dispatch
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
        broker.answers.subscribe()
        var tokens: [RequestBroker.WaiterToken] = []
        for _ in 0..<3 {
            let (status, registered) = broker.read("editor", register: true)
            #expect(status == .pending(pending))
            tokens.append(try #require(registered))
        }
        #expect(Set(tokens).count == 3)
        let answer = PickAnswer.selected([Array("b.jpg".utf8), Array("a.jpg".utf8)])
        _ = try broker.settle("editor", id: pending.id, with: answer)
        // One posted answer for the three readers, drained by the subscriber.
        let posted = try #require(broker.answers.take())
        #expect(posted.map(\.tokens) == [tokens] && posted.map(\.answer) == [answer])
        #expect(broker.status(of: "editor") == .answered(answer))
        #expect(broker.read("editor", register: true).token == nil)
        // Settled once: a second answer (or one for another request id) is refused.
        #expect(throws: RequestBrokerError.noPendingRequest("editor")) { try broker.settle("editor", with: .cancelled) }
        // A new request replaces the kept answer.
        _ = try broker.submit(try scope("editor"), now: 5)
        #expect(throws: RequestBrokerError.noPendingRequest("editor")) { try broker.settle("editor", id: pending.id, with: .cancelled) }
    }

    @Test func nonBlockingReadersAreNotRegistered() throws {
        let broker = RequestBroker()
        _ = try broker.submit(try scope("editor"), now: 0)
        #expect(broker.read("editor", register: false).token == nil)
        let idle = broker.read("idle", register: true)
        #expect(idle.status == .idle && idle.token == nil)
    }

    @Test func everySubmissionAnswerAndWithdrawalIsPostedOnceInOrder() throws {
        let broker = RequestBroker()
        // Nothing is kept before a subscriber comes.
        let unheard = try broker.submit(try scope("early"), now: 0)
        broker.events.subscribe()
        let first = try broker.submit(try scope("editor"), now: 0)
        _ = try broker.settle("editor", id: first.id, with: .cancelled)
        let second = try broker.submit(try scope("editor", timeout: 5), now: 1)
        _ = broker.expire(now: 6)
        #expect(broker.withdraw("early", id: unheard.id) == unheard)
        broker.events.close()
        var seen: [String] = []
        while let batch = broker.events.take() {
            for event in batch {
                switch event {
                case .submitted(let pending): seen.append("submitted \(pending.id)")
                case .settled(let pending, let answer): seen.append("settled \(pending.id) \(answer.summary)")
                case .withdrawn(let pending): seen.append("withdrawn \(pending.id)")
                }
            }
        }
        #expect(
            seen == [
                "submitted \(first.id)", "settled \(first.id) \(PickAnswer.cancelled.summary)", "submitted \(second.id)",
                "settled \(second.id) \(PickAnswer.expired.summary)", "withdrawn \(unheard.id)",
            ])
    }

    @Test func aBlockedWaiterWakesOnTheAnswerAndTimesOutWithout() throws {
        let broker = RequestBroker()
        let pending = try broker.submit(try scope("editor"), now: 0)
        #expect(!broker.waitForAnswer("editor", id: pending.id, seconds: 0.01))
        let woke = Mutex(false)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            woke.withLock { $0 = broker.waitForAnswer("editor", id: pending.id, seconds: 60) }
            done.signal()
        }
        // The sleeper may not be registered yet: the answer wakes it either way.
        _ = try broker.settle("editor", id: pending.id, with: .cancelled)
        done.wait()
        #expect(woke.withLock { $0 })
        #expect(broker.waitForAnswer("editor", id: pending.id, seconds: 60))
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
