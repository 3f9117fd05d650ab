/// An immutable picture of one catalog at one moment: what the FUSE views are computed from.
///
/// The daemon swaps a new snapshot in after every change; readers never touch SQLite.
public struct LibrarySnapshot: Sendable {
    /// Every catalogued asset, in no particular order (a library change keeps the places
    /// of the assets it does not touch: see `LibraryChange`).
    public var assets: ChunkedArray<Asset>
    /// Every app, by name.
    public var apps: [String: App]
    /// Each app's grants, in selection order.
    public var grants: [String: [Grant]]

    public init(assets: [Asset] = [], apps: [String: App] = [:], grants: [String: [Grant]] = [:]) {
        self.init(assets: ChunkedArray(assets), apps: apps, grants: grants)
    }

    public init(assets: ChunkedArray<Asset>, apps: [String: App] = [:], grants: [String: [Grant]] = [:]) {
        self.assets = assets
        self.apps = apps
        self.grants = grants
    }
}
