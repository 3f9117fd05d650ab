import PhotoCatalog
import PhotoCore
import PickerServer
import SystemKit

/// `photofs log [APP]`: which app read which photo and when, from the access log the
/// daemon keeps in the catalog.
enum LogCommand {
    static let command = Command(
        name: "log",
        summary: "show which app read which photo, and when (the access log)",
        usage: ["log [--since DATE] [--json] [--library DIR | --catalog PATH] [APP]"],
        details: """
            Lists the access log newest first: per app, photo and UTC day, the first and last read \
            that reached the daemon through the app's view and how many reads did. A read the kernel \
            serves from its page cache never reaches the daemon: a photo counts as read on a day when \
            some of its bytes were read through the app's view and not already cached (see README, \
            'The access log'). The daemon writes the log about once a second and keeps it 30 days \
            (photofs mount --log-retention). --since takes YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS] (UTC) or a \
            duration back from now (12h, 7d, 2w). The log never holds a location.
            """,
        options: LibraryContext.options + [
            .value("since", "DATE", "only entries read at or after DATE (YYYY-MM-DD, YYYY-MM-DDTHH:MM, or 7d back from now)"),
            .flag("json", "print a JSON array (the same data the privacy report page shows)"),
        ]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.count <= 1 else { throw .usage("log takes at most one APP.") }
        let app = arguments.positionals.first
        let since = try arguments.value("since").map { text throws(CLIError) in
            try AccessLogArguments.since(text, now: SystemClock.wallNanoseconds())
        }
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        let entries: [AccessLogEntry]
        var paths: [AssetID: String] = [:]
        var unknownApp = false
        do throws(CatalogError) {
            entries = try context.catalog.accessLog(app: app, since: since)
            if let app, entries.isEmpty { unknownApp = try context.catalog.apps()[app] == nil }
            for id in Set(entries.map(\.asset)) {
                if let record = try context.catalog.asset(id: id) { paths[id] = record.asset.path.display }
            }
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        if let app, unknownApp { throw .notFound("no app named '\(app)' and no log entries for it.") }
        let output = environment.output
        if arguments.flag("json") {
            output.line(AccessLogJSON.encode(entries, paths: paths))
            return .success
        }
        for entry in entries {
            let reads = entry.reads == 1 ? "1 read" : "\(entry.reads) reads"
            let path = paths[entry.asset] ?? "(no longer in the library)"
            output.line(
                UTCDay.timestamp(ofNanoseconds: entry.firstReadNanoseconds) + "  " + entry.app + "  " + entry.asset.rawValue + "  " + path
                    + "  (" + reads + ", last " + UTCDay.timestamp(ofNanoseconds: entry.lastReadNanoseconds) + ")")
        }
        if entries.isEmpty, environment.stdoutIsTerminal { output.error("no reads recorded" + (app.map { " for \($0)" } ?? "") + ".") }
        return .success
    }
}
