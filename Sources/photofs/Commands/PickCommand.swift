import Dispatch
import PhotoCatalog
import PhotoCore
import PhotoImaging
import PickerServer
import Synchronization
import SystemKit

/// `photofs pick APP`: the person chooses photos for an app, in a browser page served on
/// 127.0.0.1 (or in the terminal), answering the app's pending request if it has one.
enum PickCommand {
    static let command = Command(
        name: "pick",
        summary: "choose photos for an app in a browser (or --terminal), answering its request",
        usage: ["pick [--terminal] [--no-open | --window] [--port N] [--library DIR | --catalog PATH] APP"],
        details: """
            Shows the photos the app may be given (its filter, and the media its pending request asks \
            for), newest first. Add grants the chosen photos in the order picked, in one transaction, and \
            answers the app's request with their names; Cancel answers 'cancelled' and changes nothing. \
            Without a request the choice replaces the app's selection, which starts preselected. The page \
            is served on 127.0.0.1 only; its one-time link is printed (and opened with xdg-open when a \
            display is there; with --window as a window of its own, an app window of a Chromium-family \
            browser): use 'ssh -L PORT:127.0.0.1:PORT' to \
            pick from another machine. One picker answers a request: a second 'photofs pick' for the \
            same request says so and exits.
            """,
        options: LibraryContext.options + [
            .flag("terminal", "pick in this terminal instead of a browser"),
            .flag("no-open", "print the link without opening a browser"),
            .flag("window", "open the page as a window of its own (Chromium app window, else a new Firefox window)"),
            .value("port", "N", "listen on this port (default: any free port)"),
        ]
    ) { arguments, environment throws(CLIError) in
        let name = try arguments.positional(0, "APP")
        guard arguments.positionals.count == 1 else { throw .usage("pick takes one APP.") }
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        let client = PickerClient(context: context, environment: environment.variables)
        let pending = try client.mountpoint.flatMap { mountpoint throws(CLIError) in
            try PendingRequest.list(mountpoint: mountpoint, environment: environment.variables).first { $0.app == name }
        }
        // The app is checked before anything opens; the long read of what it may be given
        // comes later, while the browser starts.
        let app = try knownApp(name, context: context)
        let actions = PickerActions(grants: client.grants)
        var lock = PickerLock.Taken.unlocked
        if let request = pending?.id, let mountpoint = client.mountpoint {
            guard let taken = PickerLock.take(app: name, request: request, mountpoint: mountpoint, environment: environment.variables)
            else {
                environment.output.line("A picker for request \(request) of \(name) is already open.")
                return .success
            }
            lock = taken
        }
        defer {
            if let request = pending?.id, let mountpoint = client.mountpoint {
                PickerLock.release(lock, app: name, request: request, mountpoint: mountpoint, environment: environment.variables)
            }
        }
        let load = { () throws(CLIError) -> LoadedSetup in try makeSetup(app: app, pending: pending, context: context) }
        if arguments.flag("terminal") {
            var loaded = try load()
            loaded.keepSnapshot()
            return try TerminalPicker(setup: loaded.setup, actions: actions, output: environment.output).run()
        }
        var port: UInt16 = 0
        if let text = arguments.value("port") {
            guard let value = UInt16(text) else { throw .usage("--port takes a number from 0 to 65535.") }
            port = value
        }
        let opening: Opening = arguments.flag("no-open") ? .none : arguments.flag("window") ? .window : .browser
        return try serve(
            app: name, requestID: pending?.id, load: load, plans: StoredPlans(path: context.catalog.path), actions: actions, port: port,
            opening: opening, environment: environment)
    }

    /// The app named `name`, whose filter must still parse.
    static func knownApp(_ name: String, context: LibraryContext) throws(CLIError) -> App {
        let apps: [String: App]
        do throws(CatalogError) {
            apps = try context.catalog.apps()
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        guard let app = apps[name] else { throw .notFound("no app named '\(name)'.") }
        guard (try? Filter(app.filter)) != nil else { throw .failure("the filter of app '\(name)' no longer parses.") }
        return app
    }

    /// A picker's setup, and how to keep the catalog's assets it read for the next start.
    struct LoadedSetup {
        let setup: PickerSetup
        let catalog: Catalog
        /// The assets read from the catalog's table, with the ticket to keep them; nil when
        /// they came from an up-to-date snapshot file.
        var unsaved: (snapshot: LibrarySnapshot, ticket: Catalog.SnapshotFileTicket)?

        /// Writes the snapshot file and the view tables (as a mount does once it answers), so that the next
        /// picker or mount reads the assets from it instead of the table; a failure costs
        /// only that. Call it once the page is served; the assets are let go after it.
        mutating func keepSnapshot() {
            guard let unsaved else { return }
            self.unsaved = nil
            try? catalog.saveSnapshotFile(unsaved.snapshot, ticket: unsaved.ticket)
        }
    }

    /// What the picker offers `app` (its filter, and its pending request's media and limit).
    static func makeSetup(app known: App, pending: PendingRequest?, context: LibraryContext) throws(CLIError) -> LoadedSetup {
        // The snapshot alone: the picker needs no index or views of it.
        let snapshot: LibrarySnapshot
        let ticket: Catalog.SnapshotFileTicket?
        do throws(CatalogError) {
            (snapshot, ticket, _) = try context.catalog.snapshotForServing(viewTables: false)
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        // The app as the snapshot has it (the same unless it changed meanwhile).
        let app = snapshot.apps[known.name] ?? known
        guard let filter = try? Filter(app.filter) else { throw .failure("the filter of app '\(app.name)' no longer parses.") }
        let grants = snapshot.grants[app.name]?.map(\.asset) ?? []
        var limit = pending?.limit
        if pending == nil {
            limit = (try? PickScope(request: PickRequest(mode: .replace), app: app, appFilter: filter, grantCount: grants.count))?.limit
        }
        let media = pending?.media
        // Live Photos and RAW+JPEG pairs; none when the identifiers cannot be read (each
        // file is then a tile of its own, and a pick grants only what it names).
        let groups = (try? context.catalog.assetGroups(of: snapshot)) ?? .none
        let candidates = PickerOffer.candidates(snapshot.assets, app: app, media: media, groups: groups)
        let root = String(decoding: (try? context.catalog.libraryRoot).flatMap { $0 } ?? Array(context.library.utf8), as: UTF8.self)
        let setup = PickerSetup(
            app: app, requestID: pending?.id, mode: pending?.mode ?? .replace, limit: limit, ordered: pending?.ordered ?? true,
            media: media?.filterText ?? "", candidates: candidates, preselected: grants, libraryRoot: root,
            title: pending?.title, newApp: pending?.newApp ?? false, groups: groups)
        return LoadedSetup(setup: setup, catalog: context.catalog, unsaved: ticket.map { (snapshot, $0) })
    }

    /// How the page is shown besides the printed link.
    enum Opening {
        case none
        case browser
        case window
    }

    private static func serve(
        app name: String, requestID: Int?, load: () throws(CLIError) -> LoadedSetup, plans: StoredPlans, actions: PickerActions,
        port: UInt16, opening: Opening, environment: Environment
    )
        throws(CLIError)
        -> ExitCode
    {
        let finished = DispatchSemaphore(value: 0)
        let message = Mutex<String>("")
        // The server answers from the start: the browser opens and fetches the page while
        // the catalog is read below; the page's questions wait for it.
        let launch = PickerLaunch(gate: PickerGate())
        let boundPort = Atomic<UInt16>(0)
        let server = HTTPServer { request in launch.handle(request, port: boundPort.load(ordering: .relaxed)) }
        guard server.start(port: port) else { throw .failure("cannot listen on 127.0.0.1:\(port).") }
        defer { server.stop() }
        boundPort.store(server.port, ordering: .relaxed)
        let url = "http://127.0.0.1:\(server.port)/?token=\(launch.gate.oneTimeToken ?? "")"
        let request = requestID.map { " (answering request \($0))" } ?? ""
        // The link is a secret: it goes to the browser through a private file, and is
        // printed only when no browser was opened (this terminal is the person's own).
        let redirect = opening == .none ? nil : BrowserOpener.open(url, environment: environment, window: opening == .window)
        defer { redirect?.remove() }
        if let redirect {
            launch.gate.whenSpent { redirect.remove() }
            environment.output.line("Choose photos for \(name)\(request) in the browser window that opened.")
        } else {
            environment.output.line("Choose photos for \(name)\(request) at \(url)")
        }
        var loaded: LoadedSetup
        do throws(CLIError) {
            loaded = try load()
        } catch {
            launch.fail(error.message)
            throw error
        }
        // Decoder processes for thumbnails missing from the cache, ended with the page.
        let decoders = DecoderPool(executable: environment.executablePath, size: 2, timeLimit: 10)
        defer { decoders.shutdown() }
        let thumbnails = CachedThumbnails(
            service: ThumbnailService(pool: decoders, cache: ThumbnailCache(environment: environment.variables)),
            plans: plans)
        let service = PickerService(
            setup: loaded.setup, gate: launch.gate, thumbnails: thumbnails, actions: actions,
            finished: { text in
                message.withLock { $0 = text }
                finished.signal()
            })
        // The first list is made before the page's first question, the id places after it
        // is published (the page needs them only once the grid is painted).
        service.prepare()
        launch.publish(service)
        service.prepareLookups()
        loaded.keepSnapshot()
        // The page answers within the request's life; an abandoned page ends after an hour.
        // (The server stops before the decoders it may be waiting on.)
        if finished.wait(timeout: .now() + 3600) == .timedOut {
            server.stop()
            throw .failure("nobody picked within an hour; nothing changed.")
        }
        // Let the last response reach the browser before the server goes away.
        SystemClock.sleep(milliseconds: 300)
        server.stop()
        environment.output.line(message.withLock { $0 })
        return .success
    }
}
