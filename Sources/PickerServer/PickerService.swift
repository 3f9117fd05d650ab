import PhotoCore
import Synchronization

/// The picker page's routes, behind the gate:
///
/// | route | answer |
/// |---|---|
/// | `GET /` `/app.js` `/app.css` | the page (no inline script or style) |
/// | `GET /api/session` | the app, what it receives, limit, mode, preselected ids, the CSRF value |
/// | `GET /api/list?chip=C&q=QUERY` | the offered ids newest first with their days (`PickerList`), or the query's error and column (`PickerQuery`) |
/// | `GET /api/labels?ids=A,B` | each tile's name, date in words, camera, kind, format, a video's length |
/// | `GET /api/folders` | the folders holding offered photos, each with its count and cover |
/// | `GET /api/thumb?id=ID`, `/api/preview?id=ID` | an image without location, or 404 |
/// | `GET /api/info?id=ID` | name, date, camera, size (never a coordinate) |
/// | `POST /api/confirm` `{"ids":[...]}` | what granting them means, in words, and a confirmation for exactly those ids |
/// | `POST /api/add` `{"ids":[...],"confirmation":C}` | grants them in order and answers the request (see `GrantConfirmations`) |
/// | `POST /api/cancel` | answers the request `cancelled` |
///
/// After Add or Cancel succeeds the page is done and `finished` is called.
public final class PickerService: Sendable {
    public let setup: PickerSetup
    let gate: PickerGate
    let thumbnails: any ThumbnailSource
    let actions: PickerActions
    let finished: @Sendable (String) -> Void
    /// Each candidate's place in `setup.candidates`, made on first use (`position(of:)`).
    private let positions = Mutex<[AssetID: Int]?>(nil)
    /// The groups shown as one tile and the members without a tile of their own
    /// (`PickerSetup.groupTiles`), made on first use.
    private let groupTilesMade = Mutex<PickerSetup.GroupTiles?>(nil)
    private let done = Atomic<Bool>(false)
    let confirmations = GrantConfirmations()
    /// Each candidate's `PickerQuery.searchText`, made on the first plain-word search.
    private let searchTexts = Mutex<[String]?>(nil)
    /// Video lengths read so far (nil: the file has none readable).
    private let seconds = Mutex<[AssetID: Double?]>([:])
    /// The Folders view, made on first use.
    private let folderList = Mutex<[PickerFolder]?>(nil)
    /// The first list's answer, made once (`firstList`).
    private let firstListBytes = Mutex<[UInt8]?>(nil)

    public init(
        setup: PickerSetup, gate: PickerGate, thumbnails: any ThumbnailSource, actions: PickerActions,
        finished: @escaping @Sendable (String) -> Void
    ) {
        self.setup = setup
        self.gate = gate
        self.thumbnails = thumbnails
        self.actions = actions
        self.finished = finished
    }

    /// Chips and the filter each means.
    static let chips: [String: String] = [
        "all": "", "photos": "type:image", "videos": "type:video", "screenshots": "type:screenshot", "panoramas": "type:panorama",
    ]

    public func handle(_ request: HTTPRequest, port: UInt16) -> HTTPResponse {
        gate.answer(request, port: port, route: route)
    }

    /// The page's own files, which need nothing of the setup; nil for every other route.
    static func page(_ request: HTTPRequest) -> HTTPResponse? {
        switch (request.method, request.path) {
        case ("GET", "/"): HTTPResponse(status: 200, type: "text/html; charset=utf-8", text: PickerPage.html)
        case ("GET", "/app.js"): HTTPResponse(status: 200, type: "text/javascript; charset=utf-8", text: PickerPage.script)
        case ("GET", "/favicon.ico"): HTTPResponse(status: 204)
        case ("GET", "/app.css"): HTTPResponse(status: 200, type: "text/css; charset=utf-8", text: PickerPage.style)
        default: nil
        }
    }

    /// Answers a request the gate let through.
    func route(_ request: HTTPRequest) -> HTTPResponse {
        if let page = Self.page(request) { return page }
        switch (request.method, request.path) {
        case ("GET", "/api/session"): return json(sessionJSON())
        case ("GET", "/api/list"): return list(chip: request.query["chip"] ?? "all", query: request.query["q"] ?? "")
        case ("GET", "/api/thumb"): return image(request.query["id"], preview: false)
        case ("GET", "/api/preview"): return image(request.query["id"], preview: true)
        case ("GET", "/api/info"): return info(request.query["id"])
        case ("GET", "/api/labels"): return labels(request.query["ids"] ?? "")
        case ("GET", "/api/folders"): return folders()
        case ("POST", "/api/confirm"): return confirm(request.body)
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
        // A group's other members have no tile: the tile that stands for them carries them.
        let hidden = groupTiles().hidden
        let preselected = setup.preselected.filter { !hidden.contains($0) }.map(\.rawValue)
        return """
            {"app":\(JSONText.string(setup.app.name)),"receives":\(JSONText.string(setup.receives)),\
            "filter":\(JSONText.string(setup.app.filter)),"media":\(JSONText.string(setup.media)),"limit":\(limit),\
            "mode":"\(setup.mode.rawValue)","ordered":\(setup.ordered),"request":\(request),\
            "preselected":\(JSONText.strings(preselected)),"total":\(setup.candidates.count - hidden.count),"csrf":\(JSONText.string(gate.csrf)),\
            "title":\(setup.title.map(JSONText.string) ?? "null"),"new_app":\(setup.newApp)}
            """
    }

    func list(chip: String, query text: String) -> HTTPResponse {
        guard let chipFilter = Self.chips[chip] else { return json(#"{"error":"unknown chip","column":0}"#, status: 400) }
        if chip == "all" && text.isEmpty { return listResponse(firstList()) }
        let query: PickerQuery
        do throws(FilterError) {
            query = try PickerQuery(text)
        } catch {
            return json(#"{"error":\#(JSONText.string(error.description)),"column":\#(error.position + 1)}"#)
        }
        let chipExpression = (try? Filter(chipFilter))?.expression ?? .everything
        let texts = query.hasWords ? searchTextsMade() : []
        let hidden = groupTiles().hidden
        return listResponse(
            PickerList.json(
                setup.candidates.indices.lazy.filter { index in
                    let asset = self.setup.candidates[index]
                    return chipExpression.matches(asset) && query.matches(asset, text: texts[index]) && !hidden.contains(asset.id)
                }.map { self.setup.candidates[$0] }))
    }

    /// The groups shown as one tile, made once.
    func groupTiles() -> PickerSetup.GroupTiles {
        groupTilesMade.withLock { made in
            if let made { return made }
            let tiles = setup.groupTiles()
            made = tiles
            return tiles
        }
    }

    /// Where `id` is among the candidates, or nil when it is not offered.
    func position(of id: AssetID) -> Int? {
        positions.withLock { positions in
            if let positions { return positions[id] }
            var made: [AssetID: Int] = [:]
            made.reserveCapacity(setup.candidates.count)
            for (index, asset) in setup.candidates.enumerated() { made[asset.id] = index }
            positions = made
            return made[id]
        }
    }

    /// Makes what the page asks for first, its list, ahead of the page, on the caller's
    /// thread (before `PickerLaunch.publish`).
    public func prepare() {
        _ = firstList()
    }

    /// Makes what the page asks for after its first paint, the candidates' places (which
    /// thumbnails and labels look ids up in), on the caller's thread: after `publish`, so
    /// the first list does not wait for them.
    public func prepareLookups() {
        if let any = AssetID(number: 0) { _ = position(of: any) }
    }

    /// The page's first list (every candidate), made once: the server starts making it as
    /// the page is served, so the page's first wait is only the transfer.
    public func firstList() -> [UInt8] {
        firstListBytes.withLock { bytes in
            if let bytes { return bytes }
            let hidden = groupTiles().hidden
            let made =
                hidden.isEmpty ? PickerList.json(setup.candidates) : PickerList.json(setup.candidates.filter { !hidden.contains($0.id) })
            bytes = made
            return made
        }
    }

    private func listResponse(_ body: [UInt8]) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    private func searchTextsMade() -> [String] {
        searchTexts.withLock { texts in
            if let texts { return texts }
            let made = setup.candidates.map(PickerQuery.searchText(of:))
            texts = made
            return made
        }
    }

    /// Up to 400 tiles' labels, in the order asked; unknown ids are left out.
    private func labels(_ list: String) -> HTTPResponse {
        var objects: [String] = []
        for text in list.split(separator: ",").prefix(400) {
            guard let asset = asset(String(text)) else { continue }
            objects.append(PickerLabels.json(asset, seconds: length(of: asset), group: groupTiles().tiles[asset.id]?.group))
        }
        return json("[" + objects.joined(separator: ",") + "]")
    }

    private func length(of asset: Asset) -> Double? {
        guard asset.metadata.format.kind == .video else { return nil }
        if let known = seconds.withLock({ $0[asset.id] }) { return known }
        let read = MovieSeconds.of(asset, path: setup.libraryRoot + "/" + asset.path.display)
        seconds.withLock { $0[asset.id] = read }
        return read
    }

    private func folders() -> HTTPResponse {
        let list = folderList.withLock { list in
            if let list { return list }
            let made = setup.folders()
            list = made
            return made
        }
        let objects = list.map {
            #"{"path":\#(JSONText.string($0.path)),"count":\#($0.count),"cover":"\#($0.cover.rawValue)","term":\#(JSONText.string(PickerSetup.folderTerm($0.path)))}"#
        }
        return json(#"{"folders":[\#(objects.joined(separator: ","))]}"#)
    }

    private func asset(_ id: String?) -> Asset? {
        guard let id, let assetID = AssetID(id), let position = position(of: assetID) else { return nil }
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

    /// The ids a posted body asks to grant, checked against what is offered and the limit.
    private enum Chosen {
        case ids([AssetID])
        case refused(HTTPResponse)
    }

    private func chosen(_ body: [UInt8]) -> Chosen {
        guard let raw = PostedBody.decode(PostedBody.Chosen.self, from: body)?.ids else {
            return .refused(json(#"{"error":"malformed request"}"#, status: 400))
        }
        var ids: [AssetID] = []
        for text in raw {
            guard let id = AssetID(text), position(of: id) != nil || setup.preselected.contains(id), !ids.contains(id) else {
                return .refused(json(#"{"error":"a chosen photo is not offered"}"#, status: 400))
            }
            ids.append(id)
        }
        let counted = setup.mode == .add ? ids.filter { !setup.preselected.contains($0) } : ids
        if let limit = setup.limit, counted.count > limit {
            return .refused(json(#"{"error":\#(JSONText.string("select up to \(limit)"))}"#, status: 400))
        }
        return .ids(setup.mode == .add ? counted : ids)
    }

    private func confirm(_ body: [UInt8]) -> HTTPResponse {
        let ids: [AssetID]
        switch chosen(body) {
        case .ids(let checked): ids = checked
        case .refused(let response): return response
        }
        let summary = GrantSummary(setup: setup, ids: ids)
        let names = ids.prefix(8).compactMap { asset($0.rawValue).map(PickerLabels.name) }
        let confirmation = confirmations.issue(for: ids)
        return json(
            #"{"confirmation":"\#(confirmation)","question":\#(JSONText.string(summary.question)),"details":\#(JSONText.strings(summary.details)),"button":\#(JSONText.string(summary.button)),"ids":\#(JSONText.strings(ids.map(\.rawValue))),"names":\#(JSONText.strings(names)),"wait":\#(GrantConfirmations.minimumDelay)}"#
        )
    }

    private func add(_ body: [UInt8]) -> HTTPResponse {
        let ids: [AssetID]
        switch chosen(body) {
        case .ids(let checked): ids = checked
        case .refused(let response): return response
        }
        let confirmation = PostedBody.decode(PostedBody.Chosen.self, from: body)?.confirmation
        if case .failure(let refusal) = confirmations.redeem(confirmation, for: ids) {
            return json(#"{"error":\#(JSONText.string(refusal.reason)),"confirm":true}"#, status: 409)
        }
        return settle { actions.add(ids, setup: setup) }
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
