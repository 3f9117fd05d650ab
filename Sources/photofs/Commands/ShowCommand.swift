import MediaFormats
import PhotoCatalog
import PhotoCore
import SystemKit

/// `photofs show ASSET`: every field of one asset, and why anything is missing.
enum ShowCommand {
    static let command = Command(
        name: "show",
        summary: "show every field of one asset (by id or library-relative path)",
        usage: ["show [--library DIR | --catalog PATH] [--json] ASSET"],
        details: """
            ASSET is an asset id (12 hex digits) or a path relative to the library root. A file that is not an asset is \
            explained. For each app with --representation compatible that is served the asset as JPEG, says where that \
            JPEG is kept ($XDG_CACHE_HOME/photofs/compatible of the user running it) and whether it is made yet.
            """,
        options: LibraryContext.options + [.flag("json", "print a JSON object")]
    ) { arguments, environment throws(CLIError) in
        let target = RawArguments.bytes(try arguments.positional(0, "ASSET"))
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        let output = environment.output
        let matches: [AssetRecord]
        let failure: FailureRecord?
        do throws(CatalogError) {
            matches = try context.catalog.assets(matchingPathOrID: target)
            failure = try context.catalog.failure(at: LibraryPath(bytes: target))
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        guard let record = matches.first else {
            if let failure {
                throw .notFound("\(failure.path.display) is not an asset: \(failure.reason).")
            }
            throw .notFound("no asset '\(LibraryPath(bytes: target).display)' in the catalog of \(context.library).")
        }
        let compatible = compatibleFiles(of: record.asset, catalog: context.catalog, environment: environment)
        if arguments.flag("json") {
            var object = AssetFormatting.json(record.asset, stored: (record.fingerprint, record.redaction))
            object["compatible"] = compatible.map { ["app": $0.app, "path": $0.path, "cached": $0.cached] }
            output.line(AssetFormatting.encode(object))
        } else {
            printFields(record, output: output)
            if let bundle = bundleLine(record, context: context) { output.line("bundle".padding(13) + bundle) }
            for file in compatible {
                output.line("compatible".padding(13) + "\(file.app): \(file.path) (\(file.cached ? "made" : "not made yet"))")
            }
        }
        return .success
    }

    /// The files that belong with the asset: the other members of its group (a Live Photo,
    /// a RAW+JPEG pair), badged, and the XMP sidecars beside it (never served); nil when
    /// there are none.
    private static func bundleLine(_ record: AssetRecord, context: LibraryContext) -> String? {
        let snapshot = (try? context.catalog.snapshot()) ?? LibrarySnapshot()
        let groups = (try? context.catalog.assetGroups(of: snapshot)) ?? .none
        let group = groups.group(of: record.asset.id)
        let paths = Dictionary(snapshot.assets.map { ($0.id, $0.path) }, uniquingKeysWith: { first, _ in first })
        let root = Array(context.library.utf8) + [UInt8(ascii: "/")]
        let sidecars = XMPSidecar.candidates(for: record.asset.path.bytes).filter { FileSystem.exists(root + $0) }
        let partners = groups.partners(of: record.asset.id).compactMap { paths[$0] }
        guard !partners.isEmpty || !sidecars.isEmpty else { return nil }
        var parts = partners.map { $0.display.replacingNewlines() }
        parts += sidecars.map { String(decoding: $0, as: UTF8.self).replacingNewlines() + " (XMP sidecar, never served)" }
        return (group.map { "\($0.badge): " } ?? "") + parts.joined(separator: ", ")
    }

    private static func printFields(_ record: AssetRecord, output: Output) {
        let a = record.asset
        let m = a.metadata
        func missing(_ what: String) -> String { "(none: \(what))" }
        let fields: [(String, String)] = [
            ("id", a.id.rawValue),
            ("path", a.path.display.replacingNewlines()),
            ("format", "\(m.format.rawValue) (\(m.format.mime))"),
            ("size", "\(a.size) bytes"),
            (
                "taken",
                m.captureDate.map { "\($0) (from \(m.dateSource.rawValue))" }
                    ?? "\(a.effectiveDate) (file mtime: the file has no capture date)"
            ),
            ("camera", AssetFormatting.camera(m).isEmpty ? missing("no Make/Model in the file") : AssetFormatting.camera(m)),
            ("lens", m.lens ?? missing("no LensModel")),
            ("orientation", m.orientation.map(String.init) ?? missing("no Orientation tag")),
            ("dimensions", m.width.flatMap { w in m.height.map { "\(w) × \($0)" } } ?? missing("neither EXIF nor the container says")),
            (
                "location",
                m.location.map { l in "\(l.latitude), \(l.longitude)" + (l.altitude.map { ", \($0) m" } ?? "") }
                    ?? missing("no GPS position")
            ),
            (
                "located in",
                m.locationSources.isEmpty
                    ? (m.location?.isValid ?? false ? "EXIF GPS" : "nowhere (has:location is false)")
                    : m.locationSources.names.joined(separator: ", ")
            ),
            ("exif", m.hasExif ? "yes" : "no EXIF block"),
            ("software", m.software ?? "-"),
            ("fingerprint", record.fingerprint),
            ("strip view", AssetFormatting.describe(record.redaction.strip)),
            ("coarse view", AssetFormatting.describe(record.redaction.coarse)),
            // What an app with --metadata private receives, by its location policy.
            ("private strip", AssetFormatting.describe(record.redaction.privatePlans.plan(for: .strip))),
            ("private keep", AssetFormatting.describe(record.redaction.privatePlans.plan(for: .keep))),
            ("private coarse", AssetFormatting.describe(record.redaction.privatePlans.plan(for: .coarse))),
        ]
        for (name, value) in fields { output.line(name.padding(13) + value) }
        for problem in m.problems { output.line("problem".padding(13) + problem) }
    }
}
