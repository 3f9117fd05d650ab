import MediaFormats

/// The stored plan one read of a file overlays.
public enum ServedPlan: Hashable, Sendable {
    /// A location plan, for a `--metadata keep` view with `--location strip` or `coarse`.
    case location(RedactionPlan)
    /// The private plans in their stored form, for a `--metadata private` view (the view's
    /// location policy picks one of them).
    case privatePlans(PrivatePlans)
}

/// A plan read ahead of its file's first read, with the version of the file it was made
/// for: it serves only an asset with that id, size, mtime, inode and ctime.
public struct VersionedPlan: Hashable, Sendable {
    public let id: AssetID
    public let size: Int64
    public let mtimeNanoseconds: Int64
    public let inode: UInt64
    public let ctimeNanoseconds: Int64
    public let plan: ServedPlan

    public init(id: AssetID, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, ctimeNanoseconds: Int64, plan: ServedPlan) {
        self.id = id
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.ctimeNanoseconds = ctimeNanoseconds
        self.plan = plan
    }
}

/// One fetch of the read path: the plan of the file being read and the plans read ahead
/// with it.
public struct PlanBatch: Hashable, Sendable {
    /// The plan of the asset asked for.
    public var plan: ServedPlan
    /// The plans of the assets that follow it in the source's order.
    public var following: [VersionedPlan]
    /// The asset after the last one read ahead (nil at the end, or with no read-ahead): a
    /// later fetch for it continues a sequential read.
    public var next: AssetID?

    public init(plan: ServedPlan, following: [VersionedPlan] = [], next: AssetID? = nil) {
        self.plan = plan
        self.following = following
        self.next = next
    }
}

/// Where the read path fetches a file's redaction plan: plans are not kept per asset in
/// memory (`Asset.withheld` keeps only whether they withhold), so a read of a redacted
/// view asks for the one it serves. The daemon's is the catalog (`LibraryState`).
public protocol RedactionPlanSource: Sendable {
    /// The stored plan that serves `asset`'s file to a view with `location` and `metadata`
    /// (not both `keep`: that view serves the original). Throws `.stale` when the store
    /// holds another version of the file (size, mtime, inode or ctime differ, see
    /// `Asset.isSameFile`) or no longer holds the asset, `.planUnavailable` when the plan
    /// cannot be read. Safe to call from several threads.
    func plan(of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError) -> ServedPlan

    /// `plan(of:location:metadata:)`, with the plans of up to `ahead` assets that follow
    /// `asset` in the source's order (the catalog's: library path order, so the rest of
    /// its folder), which a reader of the folder is likely to read next. A plan read
    /// ahead that cannot be decoded is left out (its own read reports it).
    func plans(from asset: Asset, ahead: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError) -> PlanBatch
}

extension RedactionPlanSource {
    /// No read-ahead: the plan alone.
    public func plans(from asset: Asset, ahead: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlanBatch
    {
        PlanBatch(plan: try plan(of: asset, location: location, metadata: metadata))
    }
}
