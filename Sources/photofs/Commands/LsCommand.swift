import PhotoCatalog
import PhotoCore

/// `photofs ls [FILTER]`: lists the catalogued assets that match a filter.
enum LsCommand {
    static let command = Command(
        name: "ls",
        summary: "list catalogued assets matching a filter",
        usage: ["ls [--library DIR | --catalog PATH] [--json] [--count] [FILTER...]"],
        details: """
            FILTER is the filter language (see README): terms are ANDed, OR and parentheses group, \
            - or NOT negates. Several arguments are joined with spaces. Assets are listed by capture \
            date. A filter that starts with '-' goes after '--' (photofs ls -- -has:location). \
            Example: photofs ls 'type:image taken:2024-06 make:canon -has:location'
            """,
        options: LibraryContext.options + [
            .flag("json", "print a JSON array of assets"),
            .flag("count", short: "c", "print only the number of matching assets (with --json: {\"count\":N})"),
        ]
    ) { arguments, environment throws(CLIError) in
        let filter = try parseFilter(arguments.positionals.joined(separator: " "))
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        let assets: ChunkedArray<Asset>
        do throws(CatalogError) {
            assets = try context.catalog.snapshot().assets
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        let output = environment.output
        if arguments.flag("count") {
            // Counted in place: no copy and no sort of a million assets for one number.
            var count = 0
            for position in assets.indices where filter.matches(assets[position]) { count += 1 }
            output.line(arguments.flag("json") ? "{\"count\":\(count)}" : String(count))
            return .success
        }
        let matching = assets.filter { filter.matches($0) }.sorted {
            ($0.effectiveDate, $0.path) < ($1.effectiveDate, $1.path)
        }
        if arguments.flag("json") {
            output.line(AssetFormatting.encode(matching.map { AssetFormatting.json($0, stored: nil) }))
        } else {
            printTable(matching, output: output, aligned: environment.stdoutIsTerminal)
        }
        return .success
    }

    /// Parses a filter or explains the error with a caret under its position.
    static func parseFilter(_ text: String) throws(CLIError) -> Filter {
        do throws(FilterError) {
            return try Filter(text)
        } catch {
            throw .usage("bad filter: \(error)\n  \(text)\n  \(String(repeating: " ", count: error.position))^")
        }
    }

    private static func printTable(_ records: [Asset], output: Output, aligned: Bool) {
        let header = ["ID", "TAKEN", "CAMERA", "SIZE", "PATH"]
        let rows = records.map { r in
            [
                r.id.rawValue, r.effectiveDate.description.prefix(19).description, AssetFormatting.camera(r.metadata),
                AssetFormatting.size(r.size), r.path.display.replacingNewlines(),
            ]
        }
        guard aligned else {
            for row in rows { output.line(row.joined(separator: "\t")) }
            return
        }
        let widths = (0..<header.count).map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        for row in [header] + rows {
            output.line(
                row.enumerated().map { $0.offset == row.count - 1 ? $0.element : $0.element.padding(widths[$0.offset] + 1) }.joined())
        }
        output.line("\(records.count) asset\(records.count == 1 ? "" : "s")")
    }
}

extension String {
    /// Newlines and tabs shown as `\n`/`\t`, so one asset stays one line.
    func replacingNewlines() -> String {
        var text = ""
        for c in self {
            switch c {
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            default: text.append(c)
            }
        }
        return text
    }
}
