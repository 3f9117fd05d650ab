/// Renders what a fresh read of `.picker` shows: every app and its selection, written in
/// the picker language itself so that the text can be edited and written back.
///
/// Format (apps in name order, one block each, a blank line between blocks):
///
/// ```
/// # photofs picker: write commands here (app, select, deselect, clear); one write is one transaction.
/// # 2 apps
///
/// # editor: 3 selected, 2 visible
/// app add editor --filter 'type:image -has:location' --location strip --limit 50
/// select editor 3f9a1c0d2b7e  # Trips/2024/IMG_0001.jpg
/// # select editor 0c1d2e3f4a5b  # hidden: Trips/a.png does not pass the filter
/// # select editor 77aa00bb11cc  # missing: no longer in the library
///
/// # uploader: 0 selected, 0 visible
/// app add uploader --location keep --uid 1001
/// ```
///
/// - `app add` carries every setting: `--filter` (omitted when empty, quoted when it needs
///   it), `--location` always, `--limit` and `--uid` when set.
/// - One `select` per granted asset, by id, in selection order, with its library path as a
///   comment (shown escaped: `\\`, `\xNN` for control and non-UTF-8 bytes). Grants that the
///   view hides (asset gone, or no longer passing the filter) are kept in the state but
///   written as comments, so the whole text replays without error onto an empty state.
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
    public static func block(_ app: App, grants: [Grant], assets: AssetIndex) -> String {
        let name = app.name
        let filter = try? Filter(app.filter)
        var lines: [String] = []
        var visible = 0
        for grant in grants {
            guard let asset = assets[grant.asset] else {
                lines.append("# select \(name) \(grant.asset)  # missing: no longer in the library")
                continue
            }
            let path = PickerText.escaped(asset.path.bytes)
            if filter?.matches(asset) ?? false {
                visible += 1
                lines.append("select \(name) \(grant.asset)  # \(path)")
            } else {
                lines.append("# select \(name) \(grant.asset)  # hidden: \(path) does not pass the filter")
            }
        }
        var out = "\n# \(name): \(grants.count) selected, \(visible) visible\n"
        out += appLine(app) + "\n"
        if app.metadataPolicy == .private { out += Self.privateMetadataNote + "\n" }
        for line in lines { out += line + "\n" }
        return out
    }

    /// The `app add` command that recreates an app.
    public static func appLine(_ app: App) -> String {
        var line = "app add \(app.name)"
        if !app.filter.isEmpty { line += " --filter " + PickerText.quoted(app.filter) }
        line += " --location \(app.locationPolicy.rawValue)"
        if app.selectionLimit > 0 { line += " --limit \(app.selectionLimit)" }
        if let uid = app.uid { line += " --uid \(uid)" }
        if app.metadataPolicy == .private { line += " --metadata private" }
        return line
    }

    /// What an app with `--metadata private` receives, as a comment line for `.picker`.
    public static let privateMetadataNote =
        "#   --metadata private: serial numbers, unique ids, owner/artist/creator names and contacts, face names, comments, "
        + "captions, titles, keywords, time-zone offsets and maker notes are blanked; orientation, capture date, "
        + "make/model/lens, exposure, size and colour profile stay; files that cannot be blanked in place are not shown"
}
