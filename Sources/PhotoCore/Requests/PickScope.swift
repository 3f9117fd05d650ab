/// What the picker may offer for one request: the request narrowed by the app's own filter
/// and limit. A request can only narrow; it never widens what the app may be given.
public struct PickScope: Hashable, Sendable {
    public let app: String
    public let request: PickRequest
    /// The app's filter ANDed with the request's media selector.
    public let expression: FilterExpression
    /// The most photos the person may choose now; nil when nothing limits it.
    public let limit: Int?

    /// Narrows `request` for `app`, which holds `grantCount` grants. A request to add when
    /// the app is at its limit is refused (`noRoomLeft`).
    public init(request: PickRequest, app: App, appFilter: Filter, grantCount: Int) throws(PickRequestError) {
        var operands: [FilterExpression] = []
        if !appFilter.isEverything { operands.append(appFilter.expression) }
        if let media = request.media { operands.append(media.expression) }
        self.app = app.name
        self.request = request
        self.expression = operands.count == 1 ? operands[0] : .and(operands)
        var room: Int?
        if app.selectionLimit > 0 {
            room = request.mode == .add ? app.selectionLimit - grantCount : app.selectionLimit
            if room! <= 0 { throw .noRoomLeft(limit: app.selectionLimit) }
        }
        if request.limit > 0 { room = min(room ?? request.limit, request.limit) }
        self.limit = room
    }

    /// Whether the picker may offer `asset`.
    public func offers(_ asset: Asset) -> Bool { expression.matches(asset) }
}
