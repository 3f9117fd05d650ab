import MediaFormats

/// A named client with its own limited view of the library.
public struct App: Hashable, Sendable {
    /// The app's name: also its directory name under `apps/`.
    public var name: String
    /// The filter expression as the user wrote it ("" = everything).
    public var filter: String
    public var locationPolicy: LocationPolicy
    /// The most assets that may be selected at once; 0 means no limit.
    public var selectionLimit: Int
    /// The Unix uid bound to this app with `--allow-other`, if any.
    public var uid: UInt32?
    /// Whether identity and free-text metadata reach the app (`--metadata keep|private`).
    public var metadataPolicy: MetadataPolicy

    public init(
        name: String, filter: String = "", locationPolicy: LocationPolicy = .strip, selectionLimit: Int = 0, uid: UInt32? = nil,
        metadataPolicy: MetadataPolicy = .keep
    ) {
        self.name = name
        self.filter = filter
        self.locationPolicy = locationPolicy
        self.selectionLimit = selectionLimit
        self.uid = uid
        self.metadataPolicy = metadataPolicy
    }
}

/// "App A may see asset X": one entry of an app's ordered selection.
public struct Grant: Hashable, Sendable {
    public var asset: AssetID
    /// When it was granted, in nanoseconds since 1970.
    public var grantedAtNanoseconds: Int64

    public init(asset: AssetID, grantedAtNanoseconds: Int64) {
        self.asset = asset
        self.grantedAtNanoseconds = grantedAtNanoseconds
    }
}
