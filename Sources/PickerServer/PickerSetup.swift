import MediaFormats
import PhotoCore

/// Everything one picker page shows and may do: built by the command from the catalog and
/// the app's pending request, fixed for the page's life.
public struct PickerSetup: Sendable {
    public var app: App
    /// The request being answered, if any (its id in the daemon).
    public var requestID: Int?
    public var mode: PickRequest.Mode
    /// The most photos the person may choose; nil when unlimited.
    public var limit: Int?
    public var ordered: Bool
    /// The request's media selector in the filter language ("" when none).
    public var media: String
    /// What the picker offers (the app's filter and the request's media), newest first.
    public var candidates: [Asset]
    /// The app's current grants, in order.
    public var preselected: [AssetID]
    /// The library's absolute path; assets' paths are relative to it.
    public var libraryRoot: String
    /// What the asking app said the pick is for (a file dialog's title), shown in the header.
    public var title: String?
    /// Whether photofs made the app for this request (it asked through the desktop's file
    /// dialog and was unknown): the page says so.
    public var newApp: Bool
    /// The library's Live Photos and RAW+JPEG pairs: a group is one tile (see `PickerSetup+Groups.swift`).
    public var groups: AssetGroups

    public init(
        app: App, requestID: Int?, mode: PickRequest.Mode, limit: Int?, ordered: Bool, media: String, candidates: [Asset],
        preselected: [AssetID], libraryRoot: String, title: String? = nil, newApp: Bool = false, groups: AssetGroups = .none
    ) {
        self.groups = groups
        self.app = app
        self.requestID = requestID
        self.mode = mode
        self.limit = limit
        self.ordered = ordered
        self.media = media
        self.candidates = Self.newestFirst(candidates)
        self.preselected = preselected
        self.libraryRoot = libraryRoot
        self.title = title
        self.newApp = newApp
    }

    /// `assets` newest first, equal dates in their given order. Each date is unpacked once
    /// and positions are sorted, not assets: at 100,000 assets this was a third of the
    /// picker's start.
    static func newestFirst(_ assets: [Asset]) -> [Asset] {
        let keys = assets.map(\.effectiveDate.sortKey)
        if zip(keys, keys.dropFirst()).allSatisfy({ $0 >= $1 }) { return assets }
        let order = Array(assets.indices).sorted { keys[$0] != keys[$1] ? keys[$0] > keys[$1] : $0 < $1 }
        return order.map { assets[$0] }
    }

    /// What the app gets of a photo's location, in words for the header.
    public var receives: String {
        switch app.locationPolicy {
        case .strip: "location removed"
        case .coarse: "location rounded to about 1 km"
        case .keep: "location kept"
        }
    }
}

/// A refused Add or Cancel: the reason shown on the page.
public struct PickerRefusal: Error, Sendable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
}

extension CaptureDate {
    /// Orders dates by their wall-clock fields (the picker groups by local month as written).
    var sortKey: Int64 {
        Int64(year) * 10_000_000_000 + Int64(month) * 100_000_000 + Int64(day) * 1_000_000 + Int64(hour) * 10_000 + Int64(minute) * 100
            + Int64(second)
    }
}
