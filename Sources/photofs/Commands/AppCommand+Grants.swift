import DaemonCore
import PhotoCatalog
import PhotoCore

/// What `photofs app show` says about an app's rule grants, exclusions, default lifetime
/// and one-time run.
extension AppCommand {
    /// Lines in the picker language (as `.picker` shows them), with the excluded assets' paths.
    static func grantTermsLines(_ app: App, _ current: LibraryState.Current) -> [String] {
        var lines: [String] = []
        if let run = app.onceRun { lines.append("once begin \(app.name) \(run)  # a one-time run is going on") }
        for rule in app.rules {
            lines.append(PickerRenderer.ruleLine(app.name, rule))
        }
        for id in app.exclusions.sorted() {
            let path = current.assets[id].map { $0.path.display.replacingNewlines() } ?? "(no longer in the library)"
            lines.append("deselect \(app.name) \(id)  # excluded from the rules: \(path)")
        }
        return lines
    }

    /// The same for `--json`: `rules` (filter, expires, once), `exclusions` (ids), `grantsExpireSeconds`, `onceRun`.
    static func grantTermsJSON(_ app: App, _ current: LibraryState.Current) -> [String: Any] {
        var object: [String: Any] = [
            "rules": app.rules.map { rule -> [String: Any] in
                var entry: [String: Any] = ["filter": rule.filter]
                if let at = rule.terms.expiresAtNanoseconds { entry["expires"] = GrantOptions.untilText(at) }
                if let once = rule.terms.once { entry["once"] = once.description }
                return entry
            },
            "exclusions": app.exclusions.sorted().map(\.rawValue),
        ]
        if let seconds = app.grantsExpireSeconds { object["grantsExpireSeconds"] = Int(seconds) }
        if let run = app.onceRun { object["onceRun"] = run.description }
        return object
    }
}
