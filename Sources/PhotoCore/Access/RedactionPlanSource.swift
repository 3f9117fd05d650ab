import MediaFormats

/// The stored plan one read of a file overlays.
public enum ServedPlan: Hashable, Sendable {
    /// A location plan, for a `--metadata keep` view with `--location strip` or `coarse`.
    case location(RedactionPlan)
    /// The private plans in their stored form, for a `--metadata private` view (the view's
    /// location policy picks one of them).
    case privatePlans(PrivatePlans)
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
}
