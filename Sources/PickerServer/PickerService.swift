import PhotoCore
import Synchronization

/// The picker page's routes, behind the gate:
///
/// | route | answer |
/// |---|---|
/// | `GET /` `/app.js` `/app.css` | the page (no inline script or style) |
/// | `GET /api/session` | the app, what it receives, limit, mode, preselected ids, the request's title, the CSRF value |
/// | `GET /api/list?chip=C&q=FILTER` | the offered ids newest first with their days, or the filter's error and column |
/// | `GET /api/thumb?id=ID`, `/api/preview?id=ID` | an image without location, or 404 |
/// | `GET /api/info?id=ID` | name, date, camera, size (never a coordinate) |
/// | `POST /api/add` `{"ids":[...]}` | grants them in order and answers the request |
/// | `POST /api/cancel` | answers the request `cancelled` |
///
/// After Add or Cancel succeeds the page is done and `finished` is called.
public final class PickerService: Sendable {
    public let setup: PickerSetup
    let gate: PickerGate
    let thumbnails: any ThumbnailSource
    let actions: any PickerActions
    let finished: @Sendable (String) -> Void
    private let positions: [AssetID: Int]
    private let done = Atomic<Bool>(false)

    public init(
        setup: PickerSetup, gate: PickerGate, thumbnails: any ThumbnailSource, actions: any PickerActions,
        finished: @escaping @Sendable (String) -> Void
    ) {
        self.setup = setup
        self.gate = gate
        self.thumbnails = thumbnails
        self.actions = actions
        self.finished = finished
        var positions: [AssetID: Int] = [:]
        for (index, asset) in setup.candidates.enumerated() { positions[asset.id] = index }
        self.positions = positions
    }

    /// Chips and the filter each means.
    static let chips: [String: String] = [
        "all": "", "photos": "type:image", "videos": "type:video", "screenshots": "type:screenshot", "panoramas": "type:panorama",
    ]

    public func handle(_ request: HTTPRequest, port: UInt16) -> HTTPResponse {
        gate.answer(request, port: port, route: route)
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"): return HTTPResponse(status: 200, type: "text/html; charset=utf-8", text: PickerPage.html)
        case ("GET", "/app.js"): return HTTPResponse(status: 200, type: "text/javascript; charset=utf-8", text: PickerPage.script)
        case ("GET", "/favicon.ico"): return HTTPResponse(status: 204)
        case ("GET", "/app.css"): return HTTPResponse(status: 200, type: "text/css; charset=utf-8", text: PickerPage.style)
        case ("GET", "/api/session"): return json(sessionJSON())
        case ("GET", "/api/list"): return list(chip: request.query["chip"] ?? "all", query: request.query["q"] ?? "")
        case ("GET", "/api/thumb"): return image(request.query["id"], preview: false)
        case ("GET", "/api/preview"): return image(request.query["id"], preview: true)
        case ("GET", "/api/info"): return info(request.query["id"])
        case ("POST", "/api/add"): return add(request.body)
        case ("POST", "/api/cancel"): return cancel()
        default: return HTTPResponse(status: 404, type: "text/plain", text: "not found\n")
        }
    }

    private func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, type: "application/json; charset=utf-8", text: text)
    }

    private func sessionJSON() -> String {
        let limit = setup.limit.map(String.init) ?? "null"
        let request = setup.requestID.map(String.init) ?? "null"
        let preselected = setup.preselected.map(\.rawValue)
        return """
            {"app":\(JSONText.string(setup.app.name)),"receives":\(JSONText.string(setup.receives)),\
            "filter":\(JSONText.string(setup.app.filter)),"media":\(JSONText.string(setup.media)),"limit":\(limit),\
            "mode":"\(setup.mode.rawValue)","ordered":\(setup.ordered),"request":\(request),\
            "preselected":\(JSONText.strings(preselected)),"total":\(setup.candidates.count),"csrf":\(JSONText.string(gate.csrf)),\
            "title":\(setup.title.map(JSONText.string) ?? "null"),"new_app":\(setup.newApp)}
            """
    }

    func list(chip: String, query: String) -> HTTPResponse {
        guard let chipFilter = Self.chips[chip] else { return json(#"{"error":"unknown chip","column":0}"#, status: 400) }
        let filter: Filter
        do throws(FilterError) {
            filter = try Filter(query)
        } catch {
            return json(#"{"error":\#(JSONText.string(error.description)),"column":\#(error.position + 1)}"#)
        }
        let chipExpression = (try? Filter(chipFilter))?.expression ?? .everything
        var ids = "["
        var days = "["
        var first = true
        for asset in setup.candidates where chipExpression.matches(asset) && filter.matches(asset) {
            if !first {
                ids += ","
                days += ","
            }
            first = false
            let date = asset.effectiveDate
            ids += "\"" + asset.id.rawValue + "\""
            days += String(date.year * 10_000 + date.month * 100 + date.day)
        }
        return json(#"{"ids":\#(ids)],"days":\#(days)]}"#)
    }

    private func asset(_ id: String?) -> Asset? {
        guard let id, let assetID = AssetID(id), let position = positions[assetID] else { return nil }
        return setup.candidates[position]
    }

    private func image(_ id: String?, preview: Bool) -> HTTPResponse {
        guard let asset = asset(id) else { return HTTPResponse(status: 404, type: "text/plain", text: "not offered\n") }
        let path = setup.libraryRoot + "/" + asset.path.display
        let made = preview ? thumbnails.preview(of: asset, path: path) : thumbnails.thumbnail(of: asset, path: path)
        guard let made else { return HTTPResponse(status: 404, type: "text/plain", text: "no image\n") }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", made.type), ("Cache-Control", "private, max-age=3600")], body: made.bytes)
    }

    private func info(_ id: String?) -> HTTPResponse {
        guard let asset = asset(id) else { return HTTPResponse(status: 404, type: "text/plain", text: "not offered\n") }
        let metadata = asset.metadata
        let camera = [metadata.make, metadata.model].compactMap { $0 }.joined(separator: " ")
        let name = asset.path.display.split(separator: "/").last.map(String.init) ?? asset.path.display
        return json(
            #"{"name":\#(JSONText.string(name)),"date":\#(JSONText.string(asset.effectiveDate.description)),"camera":\#(JSONText.string(camera)),"size":\#(asset.size),"kind":"\#(metadata.format.kind == .video ? "video" : "image")"}"#
        )
    }

    private func add(_ body: [UInt8]) -> HTTPResponse {
        guard let raw = JSONText.stringArray("ids", in: body) else { return json(#"{"error":"malformed request"}"#, status: 400) }
        var ids: [AssetID] = []
        for text in raw {
            guard let id = AssetID(text), positions[id] != nil || setup.preselected.contains(id), !ids.contains(id) else {
                return json(#"{"error":"a chosen photo is not offered"}"#, status: 400)
            }
            ids.append(id)
        }
        let counted = setup.mode == .add ? ids.filter { !setup.preselected.contains($0) } : ids
        if let limit = setup.limit, counted.count > limit {
            return json(#"{"error":\#(JSONText.string("select up to \(limit)"))}"#, status: 400)
        }
        return settle { actions.add(setup.mode == .add ? counted : ids, setup: setup) }
    }

    private func cancel() -> HTTPResponse {
        settle { actions.cancel(setup: setup) }
    }

    private func settle(_ action: () -> Result<String, PickerRefusal>) -> HTTPResponse {
        guard !done.load(ordering: .acquiring) else { return json(#"{"error":"this picker is already done"}"#, status: 409) }
        switch action() {
        case .success(let message):
            done.store(true, ordering: .releasing)
            finished(message)
            return json(#"{"ok":true,"message":\#(JSONText.string(message))}"#)
        case .failure(let refusal):
            return json(#"{"error":\#(JSONText.string(refusal.reason))}"#, status: 409)
        }
    }
}
