import Dispatch
import Glibc
import PhotoCatalog
import PhotoCore
import PhotoImaging
import PickerServer
import Synchronization

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
        let setup = try makeSetup(app: name, context: context, mountpoint: client.mountpoint, environment: environment.variables)
        let actions = PickActions(client: client)
        var lock: Int32 = -1
        if let request = setup.requestID, let mountpoint = client.mountpoint {
            guard let taken = PickerLock.take(app: name, request: request, mountpoint: mountpoint, environment: environment.variables)
            else {
                environment.output.line("A picker for request \(request) of \(name) is already open.")
                return .success
            }
            lock = taken
        }
        defer {
            if let request = setup.requestID, let mountpoint = client.mountpoint {
                PickerLock.release(lock, app: name, request: request, mountpoint: mountpoint, environment: environment.variables)
            }
        }
        if arguments.flag("terminal") {
            return try TerminalPicker(setup: setup, actions: actions, output: environment.output).run()
        }
        var port: UInt16 = 0
        if let text = arguments.value("port") {
            guard let value = UInt16(text) else { throw .usage("--port takes a number from 0 to 65535.") }
            port = value
        }
        let opening: Opening = arguments.flag("no-open") ? .none : arguments.flag("window") ? .window : .browser
        return try serve(
            setup, plans: StoredPlans(path: context.catalog.path), actions: actions, port: port, opening: opening, environment: environment)
    }

    /// What the picker offers: the app's filter and its pending request's media and limit.
    static func makeSetup(app name: String, context: LibraryContext, mountpoint: String?, environment: [String: String]) throws(CLIError)
        -> PickerSetup
    {
        let state: LibraryState
        do throws(CatalogError) {
            state = try LibraryState(catalog: context.catalog)
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
        let snapshot = state.current.snapshot
        guard let app = snapshot.apps[name] else { throw .notFound("no app named '\(name)'.") }
        guard let filter = try? Filter(app.filter) else { throw .failure("the filter of app '\(name)' no longer parses.") }
        let grants = snapshot.grants[name]?.map(\.asset) ?? []
        let pending = try mountpoint.flatMap { mountpoint throws(CLIError) in
            try PendingRequest.list(mountpoint: mountpoint, environment: environment).first { $0.app == name }
        }
        var limit = pending?.limit
        if pending == nil {
            limit = (try? PickScope(request: PickRequest(mode: .replace), app: app, appFilter: filter, grantCount: grants.count))?.limit
        }
        let media = pending?.media
        let groups = state.current.assets.groups
        let candidates = PickerOffer.candidates(snapshot.assets, app: app, media: media, groups: groups)
        let root = String(decoding: (try? context.catalog.libraryRoot).flatMap { $0 } ?? Array(context.library.utf8), as: UTF8.self)
        return PickerSetup(
            app: app, requestID: pending?.id, mode: pending?.mode ?? .replace, limit: limit, ordered: pending?.ordered ?? true,
            media: media?.filterText ?? "", candidates: candidates, preselected: grants, libraryRoot: root,
            title: pending?.title, newApp: pending?.newApp ?? false, groups: groups)
    }

    /// How the page is shown besides the printed link.
    enum Opening {
        case none
        case browser
        case window
    }

    private static func serve(
        _ setup: PickerSetup, plans: StoredPlans, actions: PickActions, port: UInt16, opening: Opening, environment: Environment
    )
        throws(CLIError)
        -> ExitCode
    {
        let finished = DispatchSemaphore(value: 0)
        let message = Mutex<String>("")
        let gate = PickerGate()
        // Decoder processes for thumbnails missing from the cache, ended with the page.
        let decoders = DecoderPool(executable: environment.executablePath, size: 2, timeLimit: 10)
        defer { decoders.shutdown() }
        let thumbnails = CachedThumbnails(
            service: ThumbnailService(pool: decoders, cache: ThumbnailCache(environment: environment.variables)),
            plans: plans)
        let service = PickerService(
            setup: setup, gate: gate, thumbnails: thumbnails, actions: actions,
            finished: { text in
                message.withLock { $0 = text }
                finished.signal()
            })
        let boundPort = Atomic<UInt16>(0)
        let server = HTTPServer { request in service.handle(request, port: boundPort.load(ordering: .relaxed)) }
        guard server.start(port: port) else { throw .failure("cannot listen on 127.0.0.1:\(port).") }
        boundPort.store(server.port, ordering: .relaxed)
        let url = "http://127.0.0.1:\(server.port)/?token=\(gate.oneTimeToken ?? "")"
        let request = setup.requestID.map { " (answering request \($0))" } ?? ""
        // The link is a secret: it goes to the browser through a private file, and is
        // printed only when no browser was opened (this terminal is the person's own).
        let redirect = opening == .none ? nil : BrowserOpener.open(url, environment: environment, window: opening == .window)
        defer { redirect?.remove() }
        if let redirect {
            gate.whenSpent { redirect.remove() }
            environment.output.line("Choose photos for \(setup.app.name)\(request) in the browser window that opened.")
        } else {
            environment.output.line("Choose photos for \(setup.app.name)\(request) at \(url)")
        }
        // The page answers within the request's life; an abandoned page ends after an hour.
        if finished.wait(timeout: .now() + 3600) == .timedOut {
            server.stop()
            throw .failure("nobody picked within an hour; nothing changed.")
        }
        // Let the last response reach the browser before the server goes away.
        usleep(300_000)
        server.stop()
        environment.output.line(message.withLock { $0 })
        return .success
    }
}
