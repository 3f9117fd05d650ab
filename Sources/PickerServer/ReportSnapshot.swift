import PhotoCore

/// What the privacy report page shows, read afresh from the catalog for each request so a
/// revoke or a new log entry shows on the next load.
public struct ReportSnapshot: Sendable {
    /// The apps shown, by name.
    public var apps: [App]
    /// Each app's grants in selection order.
    public var grants: [String: [Grant]]
    /// The log since the start of the chart's first day, newest first.
    public var entries: [AccessLogEntry]
    /// The catalogued assets the log and the grants name (gone ones are missing).
    public var assets: [AssetID: Asset]
    /// The library's absolute path; assets' paths are relative to it.
    public var libraryRoot: String

    public init(apps: [App], grants: [String: [Grant]], entries: [AccessLogEntry], assets: [AssetID: Asset], libraryRoot: String) {
        self.apps = apps.sorted { $0.name < $1.name }
        self.grants = grants
        self.entries = entries
        self.assets = assets
        self.libraryRoot = libraryRoot
    }

    /// The library-relative path of every asset the snapshot knows.
    public var paths: [AssetID: String] { assets.mapValues(\.path.display) }
}

/// Where the report page gets its data and what its revoke does (carried out by the
/// command: the catalog, and a `deselect` through the same path as a picker write).
public protocol ReportData: Sendable {
    /// The apps, grants and the log since `since` (ns since the epoch), or why not.
    func load(since: Int64) -> Result<ReportSnapshot, PickerRefusal>
    /// Revokes `assets` from `app` (one `deselect`); a sentence for the page, or the refusal.
    func revoke(_ assets: [AssetID], from app: String) -> Result<String, PickerRefusal>
}
