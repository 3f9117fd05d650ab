/// Why a write to `.picker` (or a `photofs select|deselect|clear|app` command) was refused.
///
/// `line` is the 1-based line of the write where the failing command starts (0 when the
/// command did not come from text, e.g. the CLI built it; `reason` then omits it);
/// `column` is a 1-based byte column. Every case maps to one errno through `errnoKind`,
/// and `reason` is the one-line message the CLI prints (the daemon sends it over the
/// picker socket). Neither ever holds a coordinate or any other metadata value.
public enum PickerError: Error, Hashable, Sendable, CustomStringConvertible {
    // Malformed text (EINVAL).
    /// A `'` or `"` never closed; the position of the opening quote.
    case unterminatedQuote(line: Int, column: Int)
    /// A `\` at the very end of the write.
    case danglingBackslash(line: Int, column: Int)
    /// The first word of a command is not `app`, `select`, `deselect` or `clear`.
    case unknownCommand(String, line: Int)
    /// `app` followed by something other than `add`, `set` or `remove`.
    case unknownAppCommand(String, line: Int)
    /// A required argument is absent; the payload says which ("app name", "target", ...).
    case missingArgument(String, line: Int)
    /// An argument the command does not take.
    case unexpectedArgument(String, line: Int)
    /// An option the command does not know.
    case unknownOption(String, line: Int)
    /// An option given without its value.
    case missingOptionValue(String, line: Int)
    /// The same option twice in one command.
    case repeatedOption(String, line: Int)
    /// An option value of the wrong kind (`--limit ten`, `--location hidden`).
    case badOptionValue(option: String, value: String, line: Int)
    /// An app name that is not 1–64 of `A-Z a-z 0-9 . _ -`, or starts with `.` or `-`.
    case invalidAppName(String, line: Int)
    /// A filter (`--filter` or `--where`) that does not parse.
    case invalidFilter(FilterError, line: Int)
    /// Text that must be UTF-8 (a command word, an app name, a filter) is not.
    case notUTF8(line: Int)

    // Unknown things (ENOENT).
    /// No app of that name.
    case unknownApp(String, line: Int)
    /// The target is neither a known asset id, a library path, nor a path in the mount.
    case unknownAsset(target: [UInt8], line: Int)

    /// `app add` of a name already taken (EEXIST).
    case appExists(String, line: Int)

    /// A duration or date (`--for`, `--until`, `--grants-expire`) that does not parse (EINVAL).
    case invalidExpiry(option: String, ExpiryError, line: Int)
    /// An `--until` date that has already passed (EINVAL).
    case expiryPassed(line: Int)
    /// Two options that exclude each other (`--for` and `--until`, `--where` and `--rule`) (EINVAL).
    case conflictingOptions(String, String, line: Int)
    /// `once begin` while another one-time run of the app is going on (EEXIST).
    case onceRunGoing(app: String, line: Int)
    /// A rule grant for an app with a selection limit, or a limit for an app with rules (EDQUOT).
    case ruleWithLimit(app: String, line: Int)
    /// The asset does not pass the app's filter (EPERM).
    case outsideFilter(app: String, asset: AssetID, line: Int)
    /// The asset passes the app's filter but the app could never be served it: withheld
    /// under its location policy (`.withheld`) or its `--metadata private` (`.withheldPrivate`) (EPERM).
    case notServable(app: String, asset: AssetID, why: AssetVisibility, line: Int)
    /// The app's selection would exceed its limit (EDQUOT).
    case limitExceeded(app: String, limit: Int, wouldHave: Int, line: Int)

    /// The errno family this error is reported as.
    public var errnoKind: PickerErrnoKind {
        switch self {
        case .unterminatedQuote, .danglingBackslash, .unknownCommand, .unknownAppCommand, .missingArgument,
            .unexpectedArgument, .unknownOption, .missingOptionValue, .repeatedOption, .badOptionValue,
            .invalidAppName, .invalidFilter, .notUTF8, .invalidExpiry, .expiryPassed, .conflictingOptions:
            .invalid
        case .unknownApp, .unknownAsset: .notFound
        case .appExists, .onceRunGoing: .alreadyExists
        case .outsideFilter, .notServable: .notPermitted
        case .limitExceeded, .ruleWithLimit: .quotaExceeded
        }
    }

    /// The line of the write the error is about (0 when unknown).
    public var line: Int {
        switch self {
        case .unterminatedQuote(let line, _), .danglingBackslash(let line, _), .unknownCommand(_, let line),
            .unknownAppCommand(_, let line), .missingArgument(_, let line), .unexpectedArgument(_, let line),
            .unknownOption(_, let line), .missingOptionValue(_, let line), .repeatedOption(_, let line),
            .badOptionValue(_, _, let line), .invalidAppName(_, let line), .invalidFilter(_, let line), .notUTF8(let line),
            .unknownApp(_, let line), .unknownAsset(_, let line), .appExists(_, let line), .outsideFilter(_, _, let line),
            .notServable(_, _, _, let line),
            .limitExceeded(_, _, _, let line), .invalidExpiry(_, _, let line), .expiryPassed(let line),
            .conflictingOptions(_, _, let line), .onceRunGoing(_, let line), .ruleWithLimit(_, let line):
            line
        }
    }

    /// One line for a person: what is wrong and what to do, prefixed with `line N: ` when known.
    public var reason: String {
        let text: String
        switch self {
        case .unterminatedQuote(_, let column):
            text = "quote opened at column \(column) is never closed; add the matching quote"
        case .danglingBackslash(_, let column):
            text = "backslash at column \(column) ends the input; remove it or quote the text"
        case .unknownCommand(let word, _):
            text = "unknown command '\(PickerText.escaped(word))'; use app, select, deselect, clear or once"
        case .unknownAppCommand(let word, _):
            text = "unknown app command '\(PickerText.escaped(word))'; use app add, app set or app remove"
        case .missingArgument(let what, _):
            text = "missing \(what)"
        case .unexpectedArgument(let word, _):
            text = "unexpected argument '\(PickerText.escaped(word))'"
        case .unknownOption(let option, _):
            text =
                "unknown option '\(PickerText.escaped(option))'; app add/set take --filter, --location, --limit, --uid, --grants-expire; "
                + "select takes --where, --rule, --for, --until, --once; deselect takes --rule"
        case .missingOptionValue(let option, _):
            text = "option \(option) needs a value"
        case .repeatedOption(let option, _):
            text = "option \(option) is given twice"
        case .badOptionValue(let option, let value, _):
            text =
                "bad value '\(PickerText.escaped(value))' for \(option); expected \(PickerOption(rawValue: option)?.expected ?? "a value")"
        case .invalidAppName(let name, _):
            text = "invalid app name '\(PickerText.escaped(name))'; use 1 to 64 of A-Z a-z 0-9 . _ -, not starting with . or -"
        case .invalidFilter(let error, _):
            text = "invalid filter: \(error.description)"
        case .notUTF8(_):
            text = "command words, app names and filters must be UTF-8 text"
        case .unknownApp(let name, _):
            text = "no app named '\(PickerText.escaped(name))'; create it with: app add \(PickerText.escaped(name))"
        case .unknownAsset(let target, _):
            text = "no asset '\(PickerText.escaped(target))'; give an asset id, a path relative to the library or a path in the mount"
        case .appExists(let name, _):
            text = "app '\(name)' already exists; change it with: app set \(name) ..."
        case .outsideFilter(let app, let asset, _):
            text = "asset \(asset) does not pass the filter of app '\(app)'"
        case .notServable(let app, let asset, let why, _):
            text =
                why == .withheldPrivate
                ? "asset \(asset) cannot be blanked in place for app '\(app)' (--metadata private), so the app could not see it"
                : "asset \(asset) cannot be served to app '\(app)' under its --location policy (its location could not be read with certainty), so the app could not see it"
        case .invalidExpiry(let option, let error, _):
            text = "bad value for \(option): \(error.description)"
        case .expiryPassed:
            text = "the --until date has already passed; give a later one"
        case .conflictingOptions(let a, let b, _):
            text = "\(a) and \(b) cannot be used together"
        case .onceRunGoing(let app, _):
            text = "a one-time run of app '\(app)' is already going on; wait for it to end"
        case .ruleWithLimit(let app, _):
            text = "app '\(app)' cannot have both rule grants and a selection limit; remove one (app set \(app) --limit 0)"
        case .limitExceeded(let app, let limit, let wouldHave, _):
            text = "app '\(app)' may have at most \(limit) selected, this would make \(wouldHave); deselect some or raise --limit"
        }
        return line > 0 ? "line \(line): \(text)" : text
    }

    public var description: String { reason }
}

/// The errno families a picker error maps to; the FUSE adapter and the CLI turn them into
/// `EINVAL`, `ENOENT`, `EPERM`, `EDQUOT`, `EACCES` and `EEXIST`.
public enum PickerErrnoKind: String, Hashable, Sendable, CaseIterable {
    /// EINVAL: the text is malformed.
    case invalid
    /// ENOENT: unknown app or asset.
    case notFound
    /// EPERM: the asset is outside the app's filter, or cannot be served under its policies.
    case notPermitted
    /// EDQUOT: the app's selection limit.
    case quotaExceeded
    /// EACCES: the writer may not write the control file.
    case accessDenied
    /// EEXIST: `app add` of an existing app.
    case alreadyExists
}
