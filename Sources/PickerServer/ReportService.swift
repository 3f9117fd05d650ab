import PhotoCore
import Synchronization

/// The privacy report page's routes, behind the same gate as the picker:
///
/// | route | answer |
/// |---|---|
/// | `GET /` `/report.js` `/report.css` | the page (no inline script or style) |
/// | `GET /api/report` | the chart's days, each app with its grants, the log (`AccessLogJSON`), the CSRF value |
/// | `GET /api/thumb?id=ID` | a thumbnail without location of an asset the last report sent names, or 404 |
/// | `POST /api/revoke` `{"app":A,"ids":[...]}` | revokes those grants of app A |
/// | `POST /api/close` | ends the page |
///
/// The chart covers `days` UTC days ending today; the log sent is the same span.
public final class ReportService: Sendable {
    let gate: PickerGate
    let data: any ReportData
    let thumbnails: any ThumbnailSource
    /// The only app shown, when the command named one.
    let only: String?
    let days: Int
    let now: @Sendable () -> Int64
    let closed: @Sendable () -> Void
    /// The snapshot the page was last sent: thumbnails are looked up in it rather than
    /// reading the catalog again for every image.
    private let lastSent = Mutex<ReportSnapshot?>(nil)

    public init(
        gate: PickerGate, data: any ReportData, thumbnails: any ThumbnailSource, only: String? = nil, days: Int = 30,
        now: @escaping @Sendable () -> Int64, closed: @escaping @Sendable () -> Void
    ) {
        self.gate = gate
        self.data = data
        self.thumbnails = thumbnails
        self.only = only
        self.days = days
        self.now = now
        self.closed = closed
    }

    public func handle(_ request: HTTPRequest, port: UInt16) -> HTTPResponse {
        gate.answer(request, port: port, route: route)
    }

    private func route(_ request: HTTPRequest) -> HTTPResponse {
        switch (request.method, request.path) {
        case ("GET", "/"): return HTTPResponse(status: 200, type: "text/html; charset=utf-8", text: ReportPage.html)
        case ("GET", "/report.js"): return HTTPResponse(status: 200, type: "text/javascript; charset=utf-8", text: ReportPage.script)
        case ("GET", "/report.css"): return HTTPResponse(status: 200, type: "text/css; charset=utf-8", text: ReportPage.style)
        case ("GET", "/favicon.ico"): return HTTPResponse(status: 204)
        case ("GET", "/api/report"): return report()
        case ("GET", "/api/thumb"): return thumbnail(request.query["id"])
        case ("POST", "/api/revoke"): return revoke(request.body)
        case ("POST", "/api/close"):
            closed()
            return json(#"{"ok":true}"#)
        default: return HTTPResponse(status: 404, type: "text/plain", text: "not found\n")
        }
    }

    private func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, type: "application/json; charset=utf-8", text: text)
    }

    /// The first day of the chart and today.
    private var span: (first: Int, today: Int) {
        let today = UTCDay.day(ofNanoseconds: now())
        return (today - days + 1, today)
    }

    private func load() -> Result<ReportSnapshot, PickerRefusal> {
        switch data.load(since: UTCDay.start(of: span.first)) {
        case .failure(let refusal): return .failure(refusal)
        case .success(var snapshot):
            if let only {
                snapshot.apps = snapshot.apps.filter { $0.name == only }
                snapshot.entries = snapshot.entries.filter { $0.app == only }
            }
            return .success(snapshot)
        }
    }

    /// `,"expires":"..."` for a grant or rule that ends (UTC), `,"once":true` for one that
    /// lasts only while a one-time run goes on; nothing for a lasting one.
    private static func expiry(_ terms: GrantTerms) -> String {
        var text = ""
        if let end = terms.expiresAtNanoseconds { text += ",\"expires\":\"\(UTCDay.timestamp(ofNanoseconds: end))\"" }
        if terms.once != nil { text += ",\"once\":true" }
        return text
    }

    private func report() -> HTTPResponse {
        let snapshot: ReportSnapshot
        switch load() {
        case .failure(let refusal): return json(#"{"error":\#(JSONText.string(refusal.reason))}"#, status: 500)
        case .success(let loaded): snapshot = loaded
        }
        lastSent.withLock { $0 = snapshot }
        let (first, today) = span
        let dayList = (first...today).map { "\"" + UTCDay.text(of: $0) + "\"" }.joined(separator: ",")
        var apps = "["
        for (index, app) in snapshot.apps.enumerated() {
            if index > 0 { apps += "," }
            let grants = (snapshot.grants[app.name] ?? []).map { grant in
                let name = snapshot.assets[grant.asset].map(Self.name(of:))
                return "{\"asset\":\"\(grant.asset.rawValue)\",\"name\":\(name.map(JSONText.string) ?? "null"),"
                    + "\"granted\":\"\(UTCDay.timestamp(ofNanoseconds: grant.grantedAtNanoseconds))\""
                    + Self.expiry(grant.terms) + "}"
            }
            let rules = app.rules.map { rule in "{\"filter\":\(JSONText.string(rule.filter))" + Self.expiry(rule.terms) + "}" }
            apps += "{\"name\":\(JSONText.string(app.name)),\"filter\":\(JSONText.string(app.filter)),"
            apps += "\"rules\":[" + rules.joined(separator: ",") + "],"
            apps += "\"grants\":[" + grants.joined(separator: ",") + "]}"
        }
        apps += "]"
        let log = AccessLogJSON.encode(snapshot.entries, paths: snapshot.paths)
        return json(
            #"{"today":"\#(UTCDay.text(of: today))","days":[\#(dayList)],"apps":\#(apps),"log":\#(log),"csrf":\#(JSONText.string(gate.csrf))}"#
        )
    }

    private static func name(of asset: Asset) -> String {
        asset.path.display.split(separator: "/").last.map(String.init) ?? asset.path.display
    }

    private func thumbnail(_ id: String?) -> HTTPResponse {
        guard let id, let assetID = AssetID(id), let snapshot = lastSent.withLock({ $0 }),
            snapshot.entries.contains(where: { $0.asset == assetID })
                || snapshot.apps.contains(where: { snapshot.grants[$0.name]?.contains { $0.asset == assetID } == true }),
            let asset = snapshot.assets[assetID]
        else { return HTTPResponse(status: 404, type: "text/plain", text: "not in the report\n") }
        guard let made = thumbnails.thumbnail(of: asset, path: snapshot.libraryRoot + "/" + asset.path.display) else {
            return HTTPResponse(status: 404, type: "text/plain", text: "no image\n")
        }
        return HTTPResponse(
            status: 200, headers: [("Content-Type", made.type), ("Cache-Control", "private, max-age=3600")], body: made.bytes)
    }

    private func revoke(_ body: [UInt8]) -> HTTPResponse {
        guard let posted = PostedBody.decode(PostedBody.Revoke.self, from: body), !posted.ids.isEmpty else {
            return json(#"{"error":"malformed request"}"#, status: 400)
        }
        let (app, raw) = (posted.app, posted.ids)
        guard case .success(let snapshot) = load(), snapshot.apps.contains(where: { $0.name == app }) else {
            return json(#"{"error":"no such app in this report"}"#, status: 400)
        }
        let granted = Set(snapshot.grants[app]?.map(\.asset) ?? [])
        var ids: [AssetID] = []
        for text in raw {
            guard let id = AssetID(text), granted.contains(id) else { return json(#"{"error":"not granted to this app"}"#, status: 400) }
            ids.append(id)
        }
        switch data.revoke(ids, from: app) {
        case .success(let message): return json(#"{"ok":true,"message":\#(JSONText.string(message))}"#)
        case .failure(let refusal): return json(#"{"error":\#(JSONText.string(refusal.reason))}"#, status: 409)
        }
    }
}
