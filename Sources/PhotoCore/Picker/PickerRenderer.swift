import SystemKit

/// Renders what a fresh read of `.picker` shows: every app and its selection, written in
/// the picker language itself so that the text can be edited and written back.
///
/// Format (apps in name order, one block each, a blank line between blocks):
///
/// ```
/// # photofs picker: write commands here (app, select, deselect, clear); one write is one transaction.
/// # 3 apps
///
/// # editor: 3 selected, 2 visible
/// app add editor --filter 'type:image -has:location' --location strip --limit 50
/// select editor 3f9a1c0d2b7e  # Trips/2024/IMG_0001.jpg
/// select editor 4b5c6d7e8f90  # Trips/2024/IMG_0002.HEIC (LIVE with 9a8b7c6d5e4f)
/// # select editor 0c1d2e3f4a5b  # hidden: Trips/a.png does not pass the filter
/// # select editor 77aa00bb11cc  # missing: no longer in the library
/// # select editor 5e6f7a8b9c0d  # withheld: Trips/b.mov cannot be served under --location strip
///
/// # uploader: 0 selected, 0 visible
/// app add uploader --location keep --uid 1001
///
/// # web: 0 selected, 0 visible
/// app add web --location strip --representation compatible --quality 0.8
/// ```
///
/// - `app add` carries every setting: `--filter` (omitted when empty, quoted when it needs
///   it), `--location` always, `--limit` and `--uid` when set, `--representation` and
///   `--quality` when not the original representation (`--quality` also when not 0.8).
/// - One `select` per granted asset, by id, in selection order, with its library path as a
///   comment (shown escaped: `\\`, `\xNN` for control and non-UTF-8 bytes) and, for a
///   member of a group (`AssetGroups`), the badge and the other members' ids. Grants that the
///   view hides (`AppVisibility`: asset gone, not passing the filter, or withheld under the
///   location policy) are kept in the state but written as comments, so the whole text
///   replays without error onto an empty state.
/// - Rule grants follow as `select APP --rule FILTER`, exclusions as `deselect APP ID`
///   (after the rules, so that replaying records them again), a running one-time run as
///   `once begin APP OWNER` last and the default lifetime as `app set APP --grants-expire D`
///   just before it (so that replaying gives earlier grants neither); a grant's or rule's end as `--until` (UTC) and
///   `--once OWNER`. What has already expired is written as a comment. The block's first
///   line counts rules, exclusions and rule matches when there are any.
/// - Nothing in it is a coordinate or other metadata.
public enum PickerRenderer {
    public static func render(_ state: AccessState, assets: AssetIndex) -> String {
        var out = header(appCount: state.apps.count)
        for name in state.apps.keys.sorted() {
            guard let app = state.apps[name] else { continue }
            out += block(app, grants: state.grants[name] ?? [], assets: assets)
        }
        return out
    }

    /// The lines before the first app's block.
    public static func header(appCount: Int) -> String {
        "# photofs picker: write commands here (app, select, deselect, clear); one write is one transaction.\n"
            + "# \(appCount) app\(appCount == 1 ? "" : "s")\n"
    }

    /// One app's block, from the blank line that starts it: its caller may keep it until
    /// the app, its grants or the assets change.
    public static func block(_ app: App, grants: [Grant], assets: AssetIndex, now: Int64 = SystemClock.wallNanoseconds()) -> String {
        let name = app.name
        let visibility = AppVisibility(app)
        var lines: [String] = []
        var visible = 0
        for grant in grants {
            let line = grantLine(grant, of: app, visibility: visibility, assets: assets, now: now)
            lines.append(line.text)
            if line.visible { visible += 1 }
        }
        var ruleMatches = 0
        if !app.rules.isEmpty {
            let state = AccessState(apps: [name: app], grants: [name: grants])
            ruleMatches =
                state.members(of: name, in: assets, at: now).count
                - grants.count { !$0.terms.hasExpired(at: now) && !app.exclusions.contains($0.asset) }
            visible += ruleMatches
        }
        for rule in app.rules {
            let line = ruleLine(name, rule)
            lines.append(rule.terms.hasExpired(at: now) ? "# \(line)  # expired" : line)
        }
        for id in app.exclusions.sorted() {
            if let asset = assets[id] {
                lines.append("deselect \(name) \(id)  # excluded from the rules: \(PickerText.escaped(asset.path.bytes))")
            } else {
                lines.append("# deselect \(name) \(id)  # excluded from the rules; missing: no longer in the library")
            }
        }
        var out = opening(app, selected: grants.count, visible: visible, ruleMatches: ruleMatches)
        for line in lines { out += line + "\n" }
        return out + closing(app)
    }

    /// The line (without its newline) that stands for one of `app`'s grants in its block,
    /// and whether the app is shown the asset (`visibility` is `AppVisibility(app)`).
    public static func grantLine(_ grant: Grant, of app: App, visibility: AppVisibility, assets: AssetIndex, now: Int64) -> (
        text: String, visible: Bool
    ) {
        let name = app.name
        let terms = termsText(grant.terms)
        if grant.terms.hasExpired(at: now) { return ("# select \(name) \(grant.asset)\(terms)  # expired", false) }
        let asset = assets[grant.asset]
        let path = asset.map { PickerText.escaped($0.path.bytes) } ?? ""
        switch visibility.classify(asset) {
        case .visible:
            return ("select \(name) \(grant.asset)\(terms)  # \(path)\(groupNote(grant.asset, assets: assets))", true)
        case .missing:
            return ("# select \(name) \(grant.asset)\(terms)  # missing: no longer in the library", false)
        case .filteredOut:
            return ("# select \(name) \(grant.asset)\(terms)  # hidden: \(path) does not pass the filter", false)
        case .withheld:
            return (
                "# select \(name) \(grant.asset)\(terms)  # withheld: \(path) cannot be served under --location \(app.locationPolicy.rawValue)",
                false
            )
        case .withheldPrivate:
            return (
                "# select \(name) \(grant.asset)\(terms)  # withheld: \(path) cannot be blanked in place under --metadata private", false
            )
        }
    }

    /// ` (LIVE with ID)`, ` (RAW+JPEG with ID)` after the path of a group member: which
    /// other files are the same photo ("" for an asset in no group).
    public static func groupNote(_ id: AssetID, assets: AssetIndex) -> String {
        guard let group = assets.groups.group(of: id) else { return "" }
        return " (\(group.badge) with " + group.members.filter { $0 != id }.map(\.rawValue).joined(separator: ", ") + ")"
    }

    /// A block's lines before its grants: the count line, the `app add` line and the note of
    /// a private app.
    public static func opening(_ app: App, selected: Int, visible: Int, ruleMatches: Int = 0) -> String {
        var out = "\n# \(app.name): \(selected) selected, \(visible) visible"
        if !app.rules.isEmpty || !app.exclusions.isEmpty {
            out +=
                ", \(app.rules.count) rule\(app.rules.count == 1 ? "" : "s") matching \(ruleMatches), \(app.exclusions.count) excluded"
        }
        // The default lifetime and the running one-time run come last: replayed before the
        // grants, they would give lasting grants an expiry or make them the run's.
        var created = app
        created.grantsExpireSeconds = nil
        out += "\n" + appLine(created) + "\n"
        if app.metadataPolicy == .private { out += Self.privateMetadataNote + "\n" }
        return out
    }

    /// A block's lines after its grants, rules and exclusions: the default lifetime and the
    /// running one-time run.
    public static func closing(_ app: App) -> String {
        var out = ""
        if let seconds = app.grantsExpireSeconds { out += "app set \(app.name) --grants-expire \(ExpiryParser.text(seconds: seconds))\n" }
        if let run = app.onceRun { out += "once begin \(app.name) \(run)\n" }
        return out
    }

    /// The `select --rule` command that recreates a rule of app `name`.
    public static func ruleLine(_ name: String, _ rule: GrantRule) -> String {
        "select \(name) --rule \(PickerText.quoted(rule.filter))\(termsText(rule.terms))"
    }

    /// ` --until DATE --once OWNER` for a grant's terms ("" for a lasting grant).
    public static func termsText(_ terms: GrantTerms) -> String {
        var text = ""
        if let at = terms.expiresAtNanoseconds { text += " --until \(GrantOptions.untilText(at))" }
        if let once = terms.once { text += " --once \(once)" }
        return text
    }

    /// The `app add` command that recreates an app.
    public static func appLine(_ app: App) -> String {
        var line = "app add \(app.name)"
        if !app.filter.isEmpty { line += " --filter " + PickerText.quoted(app.filter) }
        line += " --location \(app.locationPolicy.rawValue)"
        if app.selectionLimit > 0 { line += " --limit \(app.selectionLimit)" }
        if let uid = app.uid { line += " --uid \(uid)" }
        if let seconds = app.grantsExpireSeconds { line += " --grants-expire \(ExpiryParser.text(seconds: seconds))" }
        if app.representation != .original { line += " --representation \(app.representation.rawValue)" }
        if app.representation != .original || app.quality != JPEGQualityText.defaultQuality {
            line += " --quality \(JPEGQualityText.text(app.quality))"
        }
        if app.metadataPolicy == .private { line += " --metadata private" }
        return line
    }

    /// What an app with `--metadata private` receives, as a comment line for `.picker`.
    public static let privateMetadataNote =
        "#   --metadata private: serial numbers, unique ids, owner/artist/creator names and contacts, face names, comments, "
        + "captions, titles, keywords, time-zone offsets and maker notes are blanked; orientation, capture date, "
        + "make/model/lens, exposure, size and colour profile stay; files that cannot be blanked in place are not shown"
}
