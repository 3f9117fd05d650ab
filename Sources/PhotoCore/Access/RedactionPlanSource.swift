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
    public let version: FileVersion
    public let plan: ServedPlan

    public init(version: FileVersion, plan: ServedPlan) {
        self.version = version
        self.plan = plan
    }
}

/// Where a read-ahead of a plan source starts: an asset in the source's order (the
/// catalog's is library path order).
public struct PlanCursor: Hashable, Sendable {
    public let id: AssetID
    public let path: LibraryPath

    public init(id: AssetID, path: LibraryPath) {
        self.id = id
        self.path = path
    }
}

/// Plans read ahead, in the source's order, and where the next read-ahead starts (nil at
/// the end of the source).
public struct PlansAhead: Hashable, Sendable {
    public var plans: [VersionedPlan]
    public var next: PlanCursor?

    public init(plans: [VersionedPlan] = [], next: PlanCursor? = nil) {
        self.plans = plans
        self.next = next
    }
}

/// One fetch on the read path: the plan of the file being read and the plans read ahead
/// with it.
public struct PlanBatch: Hashable, Sendable {
    /// The plan of the asset asked for.
    public var plan: ServedPlan
    /// The plans of the assets that follow it.
    public var ahead: PlansAhead

    public init(plan: ServedPlan, ahead: PlansAhead = PlansAhead()) {
        self.plan = plan
        self.ahead = ahead
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

    /// The plans of up to `count` assets from `cursor` on, for reads still to come.
    func plans(at cursor: PlanCursor, count: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlansAhead
}

extension RedactionPlanSource {
    /// No read-ahead: the plan alone.
    public func plans(from asset: Asset, ahead: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlanBatch
    {
        PlanBatch(plan: try plan(of: asset, location: location, metadata: metadata))
    }

    /// No read-ahead.
    public func plans(at cursor: PlanCursor, count: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlansAhead
    {
        PlansAhead()
    }
}
