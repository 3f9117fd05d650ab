import MediaFormats

/// One command of the picker language (the text of `.picker` and of `photofs select ...`).
public enum PickerCommand: Hashable, Sendable {
    /// `app add NAME [options]`: create an app (filter "" , `strip`, no limit, no uid, the
    /// original representation at quality 0.8 unless given).
    case appAdd(name: String, options: AppOptions)
    /// `app set NAME [options]`: change only the options given.
    case appSet(name: String, options: AppOptions)
    /// `app remove NAME`: delete the app and all its grants.
    case appRemove(name: String)
    /// `select APP TARGET...`: append the targets to the app's selection.
    case select(app: String, targets: [PickerTarget])
    /// `select APP --where FILTER`: select every asset passing the filter and the app's filter.
    case selectWhere(app: String, filter: Filter)
    /// `deselect APP TARGET...`: remove the targets from the selection.
    case deselect(app: String, targets: [PickerTarget])
    /// `clear APP`: remove the whole selection, its rules and exclusions.
    case clear(app: String)
    /// `select APP TARGET... --for D | --until T | --once OWNER`: `select` with a lifetime.
    case selectWith(app: String, targets: [PickerTarget], grant: GrantOptions)
    /// `select APP --where FILTER --for D | --until T | --once OWNER`.
    case selectWhereWith(app: String, filter: Filter, grant: GrantOptions)
    /// `select APP --rule FILTER [--for D | --until T] [--once OWNER]`: a rule grant.
    case selectRule(app: String, filter: Filter, grant: GrantOptions)
    /// `deselect APP --rule FILTER`: remove the rules written exactly so.
    case deselectRule(app: String, filter: String)
    /// `once begin APP OWNER`: a one-time run of the app starts; grants made until it ends belong to it.
    case onceBegin(app: String, owner: RunOwner)
    /// `once end APP OWNER`: the run is over; every grant that belongs to it is revoked.
    case onceEnd(app: String, owner: RunOwner)
}

/// How long a grant made by `select` lasts, as written.
public enum GrantLifetime: Hashable, Sendable {
    /// `--for DURATION`: seconds from when the command runs.
    case seconds(Int64)
    /// `--until DATE`: an instant, in nanoseconds since 1970.
    case until(Int64)
}

/// The options of `select` that say how a grant ends; nil means "not given" (the app's
/// `--grants-expire` and its running one-time run, if any, apply).
public struct GrantOptions: Hashable, Sendable {
    public var lifetime: GrantLifetime?
    public var once: RunOwner?

    public init(lifetime: GrantLifetime? = nil, once: RunOwner? = nil) {
        self.lifetime = lifetime
        self.once = once
    }

    /// An instant as `--until` reads it: UTC, rounded down to the second (written back, a
    /// grant ends up to a second early, never late).
    public static func untilText(_ nanoseconds: Int64) -> String {
        CivilTime.utcText(secondsSinceEpoch: nanoseconds / 1_000_000_000)
    }
}

/// `--grants-expire DURATION` sets an app's default grant lifetime, `--grants-expire none` removes it.
public enum GrantsExpireSetting: Hashable, Sendable {
    case none
    case seconds(Int64)

    var value: Int64? {
        switch self {
        case .none: nil
        case .seconds(let seconds): seconds
        }
    }
}

/// A command with the line of the write it starts on (0 when it did not come from text).
public struct PickerStatement: Hashable, Sendable {
    public var command: PickerCommand
    public var line: Int

    public init(_ command: PickerCommand, line: Int = 0) {
        self.command = command
        self.line = line
    }
}

/// The options of `app add` and `app set`; nil means "not given".
public struct AppOptions: Hashable, Sendable {
    public var filter: Filter?
    public var location: LocationPolicy?
    /// The selection limit; 0 means none.
    public var limit: Int?
    public var uid: UIDBinding?
    public var grantsExpire: GrantsExpireSetting?
    public var representation: Representation?
    /// The compatible JPEG's quality, 1...100.
    public var quality: Int?
    /// `--metadata`: whether identity and free-text metadata reach the app.
    public var metadata: MetadataPolicy?

    public init(
        filter: Filter? = nil, location: LocationPolicy? = nil, limit: Int? = nil, uid: UIDBinding? = nil,
        grantsExpire: GrantsExpireSetting? = nil, representation: Representation? = nil, quality: Int? = nil,
        metadata: MetadataPolicy? = nil
    ) {
        self.filter = filter
        self.location = location
        self.limit = limit
        self.uid = uid
        self.grantsExpire = grantsExpire
        self.representation = representation
        self.quality = quality
        self.metadata = metadata
    }
}

/// `--uid N` binds an app to a Unix uid; `--uid none` removes the binding.
public enum UIDBinding: Hashable, Sendable {
    case none
    case uid(UInt32)

    var value: UInt32? {
        switch self {
        case .none: nil
        case .uid(let uid): uid
        }
    }
}

/// What a command selects or deselects: the word as written (bytes), resolved by the
/// executor as an asset id, then a library-relative path, then a path in the mount.
public struct PickerTarget: Hashable, Sendable, CustomStringConvertible {
    public var bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }
    public init(_ text: String) { self.bytes = Array(text.utf8) }

    public var description: String { PickerText.escaped(bytes) }
}

/// The options of `app add`/`app set`, by their spelling.
enum PickerOption: String, CaseIterable {
    case filter = "--filter"
    case location = "--location"
    case limit = "--limit"
    case uid = "--uid"
    case `where` = "--where"
    case grantsExpire = "--grants-expire"
    case rule = "--rule"
    case `for` = "--for"
    case until = "--until"
    case once = "--once"
    case representation = "--representation"
    case quality = "--quality"
    case metadata = "--metadata"

    /// The options of `app add` and `app set`.
    static let appOptions: Set<PickerOption> = [.filter, .location, .limit, .uid, .grantsExpire, .representation, .quality, .metadata]

    /// What the option's value looks like, for error messages.
    var expected: String {
        switch self {
        case .filter, .where, .rule: "a filter expression"
        case .grantsExpire, .for: "a duration such as 90s, 30m, 1h, 7d or 2w"
        case .until: "a date such as 2026-12-24 or 2026-12-24T18:00"
        case .once: "PID:START:BOOT-ID"
        case .location: "strip, coarse or keep"
        case .limit: "a whole number from 0 (no limit) to 1000000000"
        case .uid: "a Unix uid from 1 to 4294967294, or none"
        case .representation: "original or compatible"
        case .quality: "a JPEG quality from 0.01 to 1.0 (or 1 to 100)"
        case .metadata: "keep or private"
        }
    }
}

/// App names: 1–64 of `A-Z a-z 0-9 . _ -`, not starting with `.` (so never `.` or `..`)
/// nor with `-` (it would read as an option).
public enum AppName {
    public static func isValid(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (1...64).contains(bytes.count), bytes[0] != UInt8(ascii: "."), bytes[0] != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "._-".utf8.contains(b)
        }
    }
}
