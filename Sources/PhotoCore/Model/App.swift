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
    /// Rule grants: every asset matching one of them (and the app's filter) is a member,
    /// now and later, after the explicit grants.
    public var rules: [GrantRule]
    /// Assets a rule covers that were deselected one by one: never members through a rule.
    public var exclusions: Set<AssetID>
    /// How long a grant lasts when `select` says nothing (`--grants-expire`), in seconds; nil: for good.
    public var grantsExpireSeconds: Int64?
    /// The one-time run (`photofs run --once`) going on now: grants made meanwhile belong to it.
    public var onceRun: RunOwner?
    /// Whether HEIC/HEIF/AVIF are served as stored or as JPEG (`--representation`).
    public var representation: Representation
    /// The JPEG quality (1...100) of the compatible representation (`--quality`, 0.8 = 80).
    public var quality: Int
    /// Whether identity and free-text metadata reach the app (`--metadata keep|private`).
    public var metadataPolicy: MetadataPolicy

    public init(
        name: String, filter: String = "", locationPolicy: LocationPolicy = .strip, selectionLimit: Int = 0, uid: UInt32? = nil,
        rules: [GrantRule] = [], exclusions: Set<AssetID> = [], grantsExpireSeconds: Int64? = nil, onceRun: RunOwner? = nil,
        representation: Representation = .original, quality: Int = JPEGQualityText.defaultQuality, metadataPolicy: MetadataPolicy = .keep
    ) {
        self.name = name
        self.filter = filter
        self.locationPolicy = locationPolicy
        self.selectionLimit = selectionLimit
        self.uid = uid
        self.rules = rules
        self.exclusions = exclusions
        self.grantsExpireSeconds = grantsExpireSeconds
        self.onceRun = onceRun
        self.representation = representation
        self.quality = quality
        self.metadataPolicy = metadataPolicy
    }
}

/// "App A may see asset X": one entry of an app's ordered selection.
public struct Grant: Hashable, Sendable {
    public var asset: AssetID
    /// When it was granted, in nanoseconds since 1970.
    public var grantedAtNanoseconds: Int64
    /// When it ends by itself, and the one-time run it belongs to.
    public var terms: GrantTerms

    public init(asset: AssetID, grantedAtNanoseconds: Int64, terms: GrantTerms = GrantTerms()) {
        self.asset = asset
        self.grantedAtNanoseconds = grantedAtNanoseconds
        self.terms = terms
    }
}

/// "App A may see every asset matching F, now and later": a rule grant.
public struct GrantRule: Hashable, Sendable {
    /// The filter expression as written; one that no longer parses matches nothing.
    public var filter: String
    /// When it was granted, in nanoseconds since 1970.
    public var grantedAtNanoseconds: Int64
    public var terms: GrantTerms

    public init(filter: String, grantedAtNanoseconds: Int64, terms: GrantTerms = GrantTerms()) {
        self.filter = filter
        self.grantedAtNanoseconds = grantedAtNanoseconds
        self.terms = terms
    }
}

/// How a grant ends without a deselect: at a time, with a one-time run, or never.
public struct GrantTerms: Hashable, Sendable {
    /// When the grant expires, in nanoseconds since 1970; nil: never.
    public var expiresAtNanoseconds: Int64?
    /// The `photofs run --once` it was made for: it ends when that run does.
    public var once: RunOwner?

    public init(expiresAtNanoseconds: Int64? = nil, once: RunOwner? = nil) {
        self.expiresAtNanoseconds = expiresAtNanoseconds
        self.once = once
    }

    /// Whether the grant has ended by `now` (nanoseconds since 1970).
    public func hasExpired(at now: Int64) -> Bool {
        expiresAtNanoseconds.map { $0 <= now } ?? false
    }
}
