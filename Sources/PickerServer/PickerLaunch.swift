import Dispatch
import Synchronization

/// The picker's server from its first moment: the page itself is served at once, while the
/// command still reads what it offers; the page's questions wait for `publish` (or get the
/// reason of `fail`). The browser opening and fetching the page overlaps the catalog read.
public final class PickerLaunch: Sendable {
    public let gate: PickerGate
    private enum State {
        case loading
        case ready(PickerService)
        case failed(String)
    }
    private let state = Mutex<State>(.loading)
    private let settled = DispatchGroup()
    /// How long a question waits for the setup before it is answered with an error.
    static let patience: DispatchTimeInterval = .seconds(120)

    public init(gate: PickerGate) {
        self.gate = gate
        settled.enter()
    }

    /// The service that answers from now on (call once, or `fail` instead).
    public func publish(_ service: PickerService) {
        state.withLock { $0 = .ready(service) }
        settled.leave()
    }

    /// The reason every waiting and later question gets instead of an answer.
    public func fail(_ reason: String) {
        state.withLock { $0 = .failed(reason) }
        settled.leave()
    }

    public func handle(_ request: HTTPRequest, port: UInt16) -> HTTPResponse {
        gate.answer(request, port: port) { request in
            if let page = PickerService.page(request) { return page }
            _ = settled.wait(timeout: .now() + Self.patience)
            switch state.withLock({ $0 }) {
            case .ready(let service): return service.route(request)
            case .failed(let reason): return Self.unavailable(reason)
            case .loading: return Self.unavailable("the picker is still reading the library; try again")
            }
        }
    }

    private static func unavailable(_ reason: String) -> HTTPResponse {
        HTTPResponse(status: 503, type: "application/json; charset=utf-8", text: #"{"error":\#(JSONText.string(reason))}"#)
    }
}
