import DaemonClient
import Dispatch
import SystemKit

/// `photofs portal`: the desktop portal's FileChooser backend, in the foreground (started by
/// D-Bus activation or its systemd user unit).
enum PortalCommand {
    static let command = Command(
        name: "portal",
        summary: "serve the desktop's Open dialog for photos (xdg-desktop-portal FileChooser backend)",
        usage: [
            "portal [--mountpoint DIR] [--desktop NAME] [--library DIR | --catalog PATH] [--no-open] [--log-level LEVEL]",
            "portal --which [--mountpoint DIR] [--desktop NAME]",
        ],
        details: """
            Owns org.freedesktop.impl.portal.desktop.photofs on the session bus and runs in the foreground \
            until stopped. An app's OpenFile whose filters ask only for images or videos becomes a pick \
            request of the app (its Flatpak id; a host app is 'desktop'; an unknown app is added with \
            location strip): answer it with 'photofs pick APP' or 'photofs requests', and the app \
            receives file:// URIs inside MOUNTPOINT/apps/APP in the order picked (Cancel: response 1). \
            Every other dialog (save, directory, documents, or any dialog while no library is \
            mounted) goes unchanged to the desktop's own FileChooser backend: --desktop NAME (gtk, \
            gnome, kde or a bus name), else the one portals.conf or the *.portal files' UseIn \
            choose for XDG_CURRENT_DESKTOP. Without --mountpoint the first photofs mount is used. \
            Where there is a display, each request opens the picker as a window of its own \
            ('photofs pick --window', on the mount's library or --library/--catalog); --no-open leaves \
            that to 'photofs pick'. --which prints the mount and the desktop backend and exits.
            """,
        options: [
            .value("mountpoint", short: "m", "DIR", "answer photo dialogs from this mount"),
            .value("desktop", "NAME", "the FileChooser backend for every other dialog (gtk, gnome, kde or a bus name)"),
            .value("log-level", "LEVEL", "debug, info (default), warning or error"),
            .flag("which", "print the mount and the desktop backend, then exit"),
            .flag("no-open", "do not open the picker window on a request"),
        ] + LibraryContext.options
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.isEmpty else { throw .usage("portal takes no arguments.") }
        let chosenMount = arguments.value("mountpoint")
        if let chosenMount, MountTable.current().entry(at: chosenMount) == nil {
            throw .notFound("\(chosenMount) is not a photofs mount; 'photofs status' lists them.")
        }
        let mountpoint: @Sendable () -> String? = {
            if let chosenMount { return MountTable.current().entry(at: chosenMount)?.mountpoint }
            return MountTable.current().entries.first?.mountpoint
        }
        let variables = environment.variables
        let desktop =
            arguments.value("desktop").map { DesktopChooser.named($0, variables: variables) } ?? DesktopChooser.find(variables: variables)
        if arguments.flag("which") {
            environment.output.line("mount: \(mountpoint() ?? "none (photo dialogs go to the desktop's chooser)")")
            environment.output.line("desktop: \(desktop.map { "\($0.busName) (from \($0.source))" } ?? "none found")")
            return .success
        }
        guard let level = Logger.Level(name: arguments.value("log-level") ?? "info") else {
            throw .usage("--log-level takes debug, info, warning or error.")
        }
        let log = Logger(level: level, sink: LogSink.choose(logFile: nil, detached: false, variables: variables))
        guard !(variables["DBUS_SESSION_BUS_ADDRESS"] ?? "").isEmpty || !(variables["XDG_RUNTIME_DIR"] ?? "").isEmpty else {
            throw .missingDependency("no session bus: DBUS_SESSION_BUS_ADDRESS and XDG_RUNTIME_DIR are unset.")
        }
        let bus: Bus
        do throws(BusError) {
            bus = try Bus.session()
        } catch {
            throw .missingDependency("\(error).")
        }
        let backend = FileChooserBackend(
            bus: bus, desktop: desktop, mountpoint: mountpoint, daemon: DaemonPicks(environment: variables),
            openPicker: arguments.flag("no-open") || !BrowserOpener.hasDisplay(variables) ? nil : pickerOpener(arguments, environment),
            log: log)
        do throws(BusError) {
            try backend.start()
        } catch {
            if error.code == .fileExists {
                throw .refused("another process already owns \(DesktopChooser.ownBusName) (is 'photofs portal' running?).")
            }
            throw .failure("\(error).")
        }
        // SIGTERM and SIGINT end the loop, so open picks are cancelled before the process exits.
        let stops = [Signals.terminate, Signals.interrupt].map { number in
            Signals.ignore(number)
            let source = DispatchSource.makeSignalSource(signal: number)
            source.setEventHandler { bus.stop() }
            source.resume()
            return source
        }
        defer { stops.forEach { $0.cancel() } }
        log.info(
            "portal: serving \(DesktopChooser.ownBusName) as \(bus.uniqueName); other dialogs go to \(desktop?.busName ?? "no desktop backend (they fail)")"
        )
        Systemd.notify("READY=1\nSTATUS=serving the FileChooser portal")
        let end: Bus.LoopEnd
        do throws(BusError) {
            end = try bus.run()
        } catch {
            backend.stop()
            throw .failure("\(error).")
        }
        Systemd.notify("STOPPING=1")
        backend.stop()
        log.info("portal: \(end == .stopped ? "stopped" : "the session bus went away"); open picks were cancelled")
        return .success
    }

    /// Starts `photofs pick --window APP` for a request on a mount: on the catalog or library
    /// given to the portal, else on the mount's library (whose catalog is then the default one).
    private static func pickerOpener(_ arguments: ParsedArguments, _ environment: Environment) -> @Sendable (String, String) -> Void {
        let executable = environment.executablePath
        let chosen = arguments.value("catalog").map { ["--catalog", $0] } ?? arguments.value("library").map { ["--library", $0] }
        return { app, mountpoint in
            guard let library = chosen ?? MountTable.current().entry(at: mountpoint).map({ ["--library", $0.library] }) else { return }
            Spawn.startReaped([executable, "pick", "--window"] + library + [app])
        }
    }
}
