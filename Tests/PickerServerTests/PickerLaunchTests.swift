import Dispatch
import Foundation
import Synchronization
import Testing

@testable import PickerServer

/// The picker's server before it knows what it offers: the page at once, its questions
/// held until the setup is published or has failed.
@Suite("Picker launch")
struct PickerLaunchTests {
    let port: UInt16 = 4711

    func request(_ path: String, cookie: String) -> HTTPRequest {
        HTTPRequest(method: "GET", path: path, headers: ["host": "127.0.0.1:\(port)"], query: [:], cookies: ["photofs_pick": cookie])
    }

    @Test func thePageComesAtOnceAndAQuestionWaitsForTheOutcome() throws {
        let launch = PickerLaunch(gate: PickerGate())
        let session = launch.gate.session
        #expect(launch.handle(request("/app.js", cookie: session), port: port).status == 200)
        #expect(launch.handle(request("/", cookie: session), port: port).status == 200)
        // Without the cookie nothing is served, loading or not.
        #expect(launch.handle(request("/app.js", cookie: "x"), port: port).status == 403)

        let failed = Atomic<Bool>(false)
        let answer = Mutex<(status: Int, body: String, afterFailure: Bool)?>(nil)
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let response = launch.handle(request("/api/session", cookie: session), port: port)
            answer.withLock {
                $0 = (response.status, String(decoding: response.body, as: UTF8.self), failed.load(ordering: .acquiring))
            }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 0.3) == .timedOut, "the question was answered before the setup was known")
        failed.store(true, ordering: .releasing)
        launch.fail("cannot read the catalog /x: disk I/O error.")
        #expect(done.wait(timeout: .now() + 10) == .success)
        let got = try #require(answer.withLock { $0 })
        #expect(got.status == 503)
        #expect(got.afterFailure)
        #expect(got.body.contains("cannot read the catalog /x"))
        // Later questions get the same reason at once.
        #expect(launch.handle(request("/api/list", cookie: session), port: port).status == 503)
    }
}
