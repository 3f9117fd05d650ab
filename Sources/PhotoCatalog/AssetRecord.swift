import MediaFormats
import PhotoCore

/// One row of the catalog's `assets` table: the asset and what only the catalog needs.
public struct AssetRecord: Hashable, Sendable {
    /// The asset; its `withheld` says what `redaction` withholds.
    public var asset: Asset
    /// The content fingerprint the id was derived from (see `AssetAnalysis.fingerprint`).
    public var fingerprint: String
    /// When the file was last analysed, in nanoseconds since 1970.
    public var indexedAtNanoseconds: Int64
    /// The Apple content identifier pairing a Live Photo (see `AssetAnalysis`), kept in
    /// `content_identifiers`.
    public var contentIdentifier: String? = nil
    /// How the file is served to views that hide location or private metadata: stored in
    /// the asset's `asset_plans` rows, read by the read path when a file is read
    /// (`LibraryState`'s plan source).
    public var redaction: RedactionPlans {
        didSet { asset.withheld = WithheldPlans(redaction) }
    }

    /// A record whose asset is served with `redaction` (the asset's `withheld` is set from it).
    public init(asset: Asset, fingerprint: String, indexedAtNanoseconds: Int64, redaction: RedactionPlans) {
        self.asset = asset
        self.asset.withheld = WithheldPlans(redaction)
        self.fingerprint = fingerprint
        self.indexedAtNanoseconds = indexedAtNanoseconds
        self.redaction = redaction
    }
}

/// A file of the library that is not an asset: not media, or not readable.
public struct FailureRecord: Hashable, Sendable {
    public var path: LibraryPath
    public var size: Int64
    public var mtimeNanoseconds: Int64
    public var inode: UInt64
    /// The inode change time (see `Asset.ctimeNanoseconds`).
    public var ctimeNanoseconds: Int64
    /// Why the file is not an asset.
    public var reason: AnalysisError
    public var recordedAtNanoseconds: Int64

    public init(
        path: LibraryPath, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, ctimeNanoseconds: Int64 = 0, reason: AnalysisError,
        recordedAtNanoseconds: Int64
    ) {
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.ctimeNanoseconds = ctimeNanoseconds
        self.reason = reason
        self.recordedAtNanoseconds = recordedAtNanoseconds
    }
}

/// What the indexer needs to know of a catalogued file to decide whether to read it again:
/// the version of the file the catalog describes, and its fingerprint.
struct StoredFileState: Hashable, Sendable {
    var version: FileVersion
    var fingerprint: String
}
