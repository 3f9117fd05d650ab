import Dispatch
import PhotoCatalog
import PhotoCore
import PhotoImaging
import PickerServer
import Synchronization
import SystemKit

/// `photofs report [APP]`: the privacy report page, served on 127.0.0.1 like the picker:
/// per app a chart of photos read per day over the last 30 days, the last photos read,
/// and its grants with a one-click revoke.
enum ReportCommand {
    static let command = Command(
        name: "report",
        summary: "show what each app read and holds in a browser page, with one-click revoke",
        usage: ["report [--no-open] [--port N] [--library DIR | --catalog PATH] [APP]"],
        details: """
            Serves the privacy report on 127.0.0.1 only (its one-time link is printed, and opened with \
            xdg-open when a display is there): for each app (or only APP), a bar chart of the photos it \
            read per UTC day over the last 30 days, drawn from the access log ('photofs log --json' \
            gives the same data), the last photos it read with thumbnails, and its grants, each with a \
            Revoke button that runs 'deselect' the way 'photofs deselect' does (through the mount when \
            mounted, so the app loses the photo at once). Close on the page, or an hour without it, ends \
            the command.
            """,
        options: LibraryContext.options + [
            .flag("no-open", "print the link without opening a browser"),
            .value("port", "N", "listen on this port (default: any free port)"),
        ]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.count <= 1 else { throw .usage("report takes at most one APP.") }
        let only = arguments.positionals.first
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        if let only {
            let known: Bool
            do throws(CatalogError) {
                known = try context.catalog.apps()[only] != nil
            } catch {
                throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
            }
            guard known else { throw .notFound("no app named '\(only)'.") }
        }
        var port: UInt16 = 0
        if let text = arguments.value("port") {
            guard let value = UInt16(text) else { throw .usage("--port takes a number from 0 to 65535.") }
            port = value
        }
        let data = CatalogReportData(context: context, client: PickerClient(context: context, environment: environment.variables))
        return try serve(data, only: only, port: port, open: !arguments.flag("no-open"), environment: environment)
    }

    private static func serve(_ data: CatalogReportData, only: String?, port: UInt16, open: Bool, environment: Environment) throws(CLIError)
        -> ExitCode
    {
        let closed = DispatchSemaphore(value: 0)
        let gate = PickerGate(command: "photofs report")
        let decoders = DecoderPool(executable: environment.executablePath, size: 2, timeLimit: 10)
        defer { decoders.shutdown() }
        let thumbnails = CachedThumbnails(
            service: ThumbnailService(pool: decoders, cache: ThumbnailCache(environment: environment.variables)),
            plans: StoredPlans(path: data.context.catalog.path))
        let service = ReportService(
            gate: gate, data: data, thumbnails: thumbnails, only: only, now: { SystemClock.wallNanoseconds() }, closed: { closed.signal() })
        let boundPort = Atomic<UInt16>(0)
        let server = HTTPServer { request in service.handle(request, port: boundPort.load(ordering: .relaxed)) }
        guard server.start(port: port) else { throw .failure("cannot listen on 127.0.0.1:\(port).") }
        boundPort.store(server.port, ordering: .relaxed)
        let url = "http://127.0.0.1:\(server.port)/?token=\(gate.oneTimeToken ?? "")"
        let redirect = open ? BrowserOpener.open(url, environment: environment) : nil
        defer { redirect?.remove() }
        if let redirect {
            gate.whenSpent { redirect.remove() }
            environment.output.line("Privacy report\(only.map { " for \($0)" } ?? "") in the browser window that opened.")
        } else {
            environment.output.line("Privacy report\(only.map { " for \($0)" } ?? "") at \(url)")
        }
        let timedOut = closed.wait(timeout: .now() + 3600) == .timedOut
        // Let the last response reach the browser before the server goes away.
        SystemClock.sleep(milliseconds: 300)
        server.stop()
        environment.output.line(timedOut ? "The report page ended after an hour." : "The report page was closed.")
        return .success
    }
}

/// The report's data from the catalog; revoke is a `deselect` sent like `photofs deselect`.
struct CatalogReportData: ReportData {
    let context: LibraryContext
    let client: PickerClient

    func load(since: Int64) -> Result<ReportSnapshot, PickerRefusal> {
        do throws(CatalogError) {
            let catalog = context.catalog
            let apps = try catalog.apps()
            let grants = try catalog.allGrants()
            let entries = try catalog.accessLog(since: since)
            var assets: [AssetID: Asset] = [:]
            for id in Set(entries.map(\.asset)).union(grants.values.flatMap { $0.map(\.asset) }) {
                if let record = try catalog.asset(id: id) { assets[id] = record.asset }
            }
            let root = try catalog.libraryRoot.map { String(decoding: $0, as: UTF8.self) } ?? context.library
            return .success(ReportSnapshot(apps: Array(apps.values), grants: grants, entries: entries, assets: assets, libraryRoot: root))
        } catch {
            return .failure(PickerRefusal("cannot read the catalog: \(error)"))
        }
    }

    func revoke(_ assets: [AssetID], from app: String) -> Result<String, PickerRefusal> {
        do throws(CLIError) {
            try client.send(Array(("deselect \(app) " + assets.map(\.rawValue).joined(separator: " ") + "\n").utf8))
        } catch {
            return .failure(PickerRefusal(error.message))
        }
        return .success(assets.count == 1 ? "Revoked 1 photo from \(app)." : "Revoked \(assets.count) photos from \(app).")
    }
}
