/// The `.picker` command language as `photofs help picker` and the man page describe it:
/// one row per command (its synopsis and what it does), and an example line of each that
/// the picker's own parser accepts (checked by the man page test).
enum PickerReference {
    static let rows: [ReferenceRow] = [
        ReferenceRow(
            synopsis:
                "app add NAME [--filter F] [--location strip|coarse|keep] [--limit N] [--uid UID] [--grants-expire DURATION] [--representation original|compatible] [--quality Q] [--metadata keep|private]",
            meaning:
                "a new app (name: letters, digits, '.', '_', '-'; up to 64 characters); compatible serves HEIC/HEIF/AVIF as JPEG at quality Q (default 0.8); private blanks identity metadata",
            example: "app add editor --filter 'type:image -has:location' --location strip --limit 50"),
        ReferenceRow(
            synopsis: "app set NAME [same options] (--uid none unbinds)", meaning: "change an app; its grants are kept",
            example: "app set editor --location coarse --uid none --representation compatible --quality 0.9"),
        ReferenceRow(synopsis: "app remove NAME", meaning: "remove an app and its grants", example: "app remove editor"),
        ReferenceRow(
            synopsis: "select APP TARGET...", meaning: "grant assets, appended in the order given",
            example: "select editor IMG_0001.jpg \"Summer 2024/IMG 0002.jpg\" 3f9a1c0d2b7e"),
        ReferenceRow(
            synopsis: "select APP --where FILTER", meaning: "grant every asset passing FILTER and the app's filter, by capture date",
            example: "select editor --where 'taken:2024-06 make:canon'"),
        ReferenceRow(
            synopsis: "deselect APP TARGET...", meaning: "revoke (immediately, also for files already open)",
            example: "deselect editor IMG_0001.jpg"),
        ReferenceRow(synopsis: "clear APP", meaning: "revoke all of an app's grants, rules and exclusions", example: "clear editor"),
        ReferenceRow(
            synopsis: "select APP TARGET... --for DURATION | --until DATE",
            meaning:
                "grant for a while: DURATION like 90s, 30m, 1h, 7d, 2w; DATE like 2026-12-24T18:00 (local time; Z or +HH:MM for a zone)",
            example: "select editor IMG_0001.jpg --for 1h"),
        ReferenceRow(
            synopsis: "select APP --where FILTER --for DURATION | --until DATE", meaning: "the same for every asset passing FILTER",
            example: "select editor --where 'taken:2024-06' --until 2030-12-24T18:00"),
        ReferenceRow(
            synopsis: "select APP --rule FILTER [--for DURATION | --until DATE]",
            meaning:
                "a rule grant: every asset matching FILTER and the app's filter, now and later, after the explicit grants by capture date",
            example: "select uploader --rule 'folder:DCIM type:image'"),
        ReferenceRow(
            synopsis: "deselect APP --rule FILTER",
            meaning: "remove the rule written exactly so (a deselect of one asset a rule covers records an exclusion)",
            example: "deselect uploader --rule 'folder:DCIM type:image'"),
        ReferenceRow(
            synopsis: "once begin APP PID:START:BOOT-ID",
            meaning: "a one-time run of the app begins (photofs run --once writes it): grants made until it ends belong to it",
            example: "once begin editor 4242:123456:0f1e2d3c-aaaa-bbbb-cccc-0123456789ab"),
        ReferenceRow(
            synopsis: "once end APP PID:START:BOOT-ID", meaning: "the run is over: its grants are revoked",
            example: "once end editor 4242:123456:0f1e2d3c-aaaa-bbbb-cccc-0123456789ab"),
    ]

    static let rules = [
        "Commands are one per line, with shell-style quoting. A TARGET is an asset id, a path relative to the library, "
            + "or a path inside the mount (library/folders/... or absolute).",
        "One write(2) is one transaction: every command in it takes effect, or none does, and it is on disk before the write returns.",
        "A refused write fails with an errno that fits: EINVAL malformed, ENOENT unknown app or asset, EPERM asset outside the "
            + "app's filter, EDQUOT over the app's limit, EEXIST app already exists, EACCES not the owner. The writing thread "
            + "reads the one-line reason back through its read-write descriptor (pread at 0); any other read of .picker shows "
            + "the apps and their selections, in the same language.",
    ]

    /// `photofs help picker`.
    static var help: String {
        var text = "The picker language (MOUNTPOINT/.picker, and photofs app/select/deselect/clear):\n\n"
        for row in rows { text += "  " + row.synopsis + "\n" + wrap(row.meaning, indent: "      ") + "\n" }
        text += "\n" + rules.map { wrap($0, indent: "  ") }.joined(separator: "\n\n") + "\n\nExamples:\n"
        text += rows.compactMap(\.example).map { "  " + echo($0) + "\n" }.joined()
        return text
    }

    /// A shell line that writes `example` to the control file, in the quotes that read best.
    static func echo(_ example: String) -> String {
        guard example.contains("'") else { return "echo '\(example)' > MOUNTPOINT/.picker" }
        let escaped = example.replacingBytes([
            UInt8(ascii: "\\"): Array("\\\\".utf8), UInt8(ascii: "\""): Array("\\\"".utf8), UInt8(ascii: "$"): Array("\\$".utf8),
            UInt8(ascii: "`"): Array("\\`".utf8),
        ])
        return "echo \"\(escaped)\" > MOUNTPOINT/.picker"
    }
}
