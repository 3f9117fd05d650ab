import DaemonCore
import PhotoCatalog
import PhotoCore
import SystemKit

/// `photofs app add|set|remove|list|show`: the apps that get limited views.
enum AppCommand {
    static let command = Command(
        name: "app",
        summary: "add, change, remove, list or show apps",
        usage: [
            "app add NAME [--filter FILTER] [--location strip|coarse|keep] [--limit N] [--uid UID] [--grants-expire DURATION] [--representation original|compatible] [--quality Q] [--metadata keep|private]",
            "app set NAME [--filter FILTER] [--location strip|coarse|keep] [--limit N] [--uid UID|none] [--grants-expire DURATION|none] [--representation original|compatible] [--quality Q] [--metadata keep|private]",
            "app remove NAME",
            "app list [--json]",
            "app show [--json] NAME",
        ],
        details: """
            An app sees MOUNTPOINT/apps/NAME: the assets granted to it that pass its filter, in \
            selection order. --location strip (default) removes GPS on read, coarse rounds it to \
            about 1 km, keep serves the original bytes. --limit caps the selection (0: none). --uid \
            binds the view to a Unix user (with 'photofs mount --allow-other'). --metadata private \
            (default keep) also blanks serial numbers, unique ids, names, contacts, face names, \
            comments, captions, titles, keywords, time-zone offsets and maker notes; files that \
            cannot be blanked in place are not shown to the app. 'app show' lists the visible \
            assets, then each hidden grant with why: missing (not in the library), filtered-out, \
            withheld (cannot be served under the location policy) or withheld-private (cannot be \
            blanked in place under --metadata private). --grants-expire 7d makes every grant \
            without --for or --until last that long. --representation \
            compatible serves HEIC, HEIF, AVIF and JPEG XL as JPEG named .jpg (quality Q: 0.01-1.0, or \
            1-100 as libjpeg counts; 0.8 by default, as the iOS picker's jpegData), original \
            (default) serves them as stored. All take \
            --library DIR or --catalog PATH.
            """,
        options: LibraryContext.options + [.flag("json", "print JSON (list, show)")], passesUnknownOptions: true
    ) { arguments, environment throws(CLIError) in
        guard let verb = arguments.positionals.first else { throw .usage("missing app command: add, set, remove, list or show") }
        switch verb {
        case "list":
            return try list(arguments, environment)
        case "show":
            return try show(try arguments.positional(1, "NAME"), arguments, environment)
        case "add", "set", "remove":
            return try SelectCommands.forward("app", arguments, environment)
        default:
            throw .usage("unknown app command '\(verb)': use add, set, remove, list or show")
        }
    }

    private static func state(_ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> LibraryState.Current {
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        do throws(CatalogError) {
            return try LibraryState(catalog: context.catalog).current
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
    }

    private static func json(_ app: App, _ current: LibraryState.Current) -> [String: Any] {
        let visible = AccessState(current.snapshot).visibleAssets(of: app.name, in: current.assets)
        var object: [String: Any] = [
            "name": app.name, "filter": app.filter, "location": app.locationPolicy.rawValue, "metadata": app.metadataPolicy.rawValue,
            "limit": app.selectionLimit, "selected": current.snapshot.grants[app.name]?.count ?? 0, "visible": visible.count,
        ]
        if let uid = app.uid { object["uid"] = Int(uid) }
        object["representation"] = app.representation.rawValue
        object["quality"] = Double(app.quality) / 100
        return object
    }

    private static func list(_ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> ExitCode {
        let current = try state(arguments, environment)
        let apps = current.snapshot.apps.values.sorted { $0.name < $1.name }
        let output = environment.output
        if arguments.flag("json") {
            output.line(AssetFormatting.encode(apps.map { json($0, current) }))
            return .success
        }
        if apps.isEmpty {
            output.line("no apps yet; add one with: photofs app add NAME --filter 'type:image'")
            return .success
        }
        for app in apps {
            let object = json(app, current)
            output.line(
                "\(app.name)\t\(object["visible"] ?? 0)/\(object["selected"] ?? 0) visible\tlocation \(app.locationPolicy.rawValue)\tlimit \(app.selectionLimit == 0 ? "none" : String(app.selectionLimit))\(app.uid.map { "\tuid \($0)" } ?? "")\(representation(app))\(app.metadataPolicy == .private ? "\tmetadata private" : "")\tfilter \(app.filter.isEmpty ? "(everything)" : app.filter)"
            )
        }
        return .success
    }

    /// The list column of an app served JPEGs ("" for the original representation).
    private static func representation(_ app: App) -> String {
        app.representation == .original ? "" : "\t\(app.representation.rawValue) \(JPEGQualityText.text(app.quality))"
    }

    private static func show(_ name: String, _ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> ExitCode {
        let current = try state(arguments, environment)
        guard let app = current.snapshot.apps[name] else { throw .notFound("no app named '\(name)'; see 'photofs app list'.") }
        let visible = AccessState(current.snapshot).visibleAssets(of: name, in: current.assets)
        let hidden = hiddenGrants(of: app, current)
        let output = environment.output
        if arguments.flag("json") {
            var object = json(app, current)
            object["assets"] = visible.map { asset -> [String: Any] in
                var entry: [String: Any] = ["id": asset.id.rawValue, "path": asset.path.display]
                if let group = current.assets.groups.group(of: asset.id) {
                    entry["group"] = ["kind": group.kind.rawValue, "members": group.members.map(\.rawValue)]
                }
                return entry
            }
            object["hidden"] = hidden.map { grant -> [String: Any] in
                var entry: [String: Any] = ["id": grant.id.rawValue, "reason": grant.reason]
                if let path = grant.path { entry["path"] = path }
                return entry
            }
            object.merge(grantTermsJSON(app, current)) { $1 }
            output.line(AssetFormatting.encode(object))
            return .success
        }
        output.line(PickerRenderer.appLine(app))
        for line in grantTermsLines(app, current) { output.line(line) }
        output.line("\(visible.count) visible of \(current.snapshot.grants[name]?.count ?? 0) selected:")
        for asset in visible {
            let group = PickerRenderer.groupNote(asset.id, assets: current.assets)
            output.line("  \(asset.id)  \(asset.path.display.replacingNewlines())\(group)")
        }
        if !hidden.isEmpty { output.line("\(hidden.count) hidden:") }
        for grant in hidden {
            output.line("  \(grant.id)  \(grant.reason)\(grant.path.map { "  " + $0.replacingNewlines() } ?? "")")
        }
        return .success
    }

    /// A grant the app's view does not show, and why (`AppVisibility`).
    private struct HiddenGrant {
        let id: AssetID
        /// `missing`, `filtered-out`, `withheld` or `withheld-private`.
        let reason: String
        let path: String?
    }

    /// The app's members that `AppVisibility` hides, in selection order.
    private static func hiddenGrants(of app: App, _ current: LibraryState.Current) -> [HiddenGrant] {
        let visibility = AppVisibility(app)
        let members = AccessState(current.snapshot).members(of: app.name, in: current.assets, at: SystemClock.wallNanoseconds())
        return members.compactMap { id in
            let asset = current.assets[id]
            let reason: String
            switch visibility.classify(asset) {
            case .visible: return nil
            case .missing: reason = "missing"
            case .filteredOut: reason = "filtered-out"
            case .withheld: reason = "withheld"
            case .withheldPrivate: reason = "withheld-private"
            }
            return HiddenGrant(id: id, reason: reason, path: asset?.path.display)
        }
    }
}
