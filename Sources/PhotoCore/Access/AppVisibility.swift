import MediaFormats

/// What an app may be shown of one asset it holds a grant for, and why not.
public enum AssetVisibility: Hashable, Sendable {
    /// In the app's view.
    case visible
    /// Not catalogued: deleted from the library (the grant stays, and shows it again when
    /// the asset comes back).
    case missing
    /// Catalogued but does not pass the app's filter, or the filter no longer parses
    /// (which shows nothing rather than everything).
    case filteredOut
    /// Passes the filter but cannot be served under the app's location policy: its
    /// redaction plan withholds it (metadata that could not be read with certainty).
    case withheld
    /// Passes the filter but cannot be served under `--metadata private`: it has no private
    /// plan yet (catalogued before the policy existed, until the next index) or its private
    /// plan for the app's location policy withholds it (metadata that cannot be blanked in place).
    case withheldPrivate
}

/// The one rule for what an app sees: a member (`AccessState.members`: granted or
/// matched by a rule, not excluded, not expired) ∧ catalogued ∧ passes the app's filter ∧
/// servable under its location and metadata policies, and (for who is asking) the uid rule in
/// `mayEnter`. The view tree, `.picker`'s rendering, `AccessState.visibleAssets` (and so
/// `photofs app list/show` and their JSON) all decide through it, so they cannot disagree.
public struct AppVisibility: Sendable {
    public let app: App
    /// The app's filter as a test; nil when it cannot be evaluated (fail closed).
    private let passes: (@Sendable (Asset) -> Bool)?

    public init(_ app: App, filters: some AppFilterResolving = FilterLanguageResolver()) {
        self.app = app
        self.passes = filters.predicate(for: app)
    }

    /// Classifies one member: `asset` is what the catalog holds for its id (nil if nothing).
    public func classify(_ asset: Asset?) -> AssetVisibility {
        guard let asset else { return .missing }
        guard let passes, passes(asset) else { return .filteredOut }
        // A private app is served its private plan (location handled in it too), never the plain one.
        if app.metadataPolicy == .private {
            // A compatible JPEG carries the source's EXIF over with only the location policy
            // applied, not the private plan: such a file is not shown to a private app.
            if app.representation.servesJPEG(for: asset.metadata.format) { return .withheldPrivate }
            return asset.withheld.isWithheld(for: app.locationPolicy, metadata: .private) ? .withheldPrivate : .visible
        }
        if asset.withheld.isWithheld(for: app.locationPolicy, metadata: .keep) { return .withheld }
        return .visible
    }

    /// Whether a catalogued member is in the app's view.
    public func shows(_ asset: Asset) -> Bool { classify(asset) == .visible }

    /// The uid rule: whether `caller` may enter the view of the app called `name` (the
    /// owner and root enter every view, a bound uid only its own apps', a stranger none).
    public static func mayEnter(_ name: String, caller: ViewCaller) -> Bool {
        switch caller {
        case .owner: true
        case .apps(let names): names.contains(name)
        case .stranger: false
        }
    }
}
