import CSystemd
import Dispatch
import PhotoCore

/// The xdg-desktop-portal FileChooser backend: an `OpenFile` that asks only for photos and
/// videos becomes a pick request of the calling app, answered by the person in photofs's
/// picker; every other call (save dialogs, directories, documents) goes unchanged to the
/// desktop's own backend and its answer comes back unchanged. Each call's handle is served
/// as an `org.freedesktop.impl.portal.Request` until the call is answered; its `Close`
/// cancels the pick (or is passed on).
///
/// Everything here runs on the bus loop's thread; the blocking work of a pick (the daemon's
/// answer may take minutes) runs on a worker that posts its result back to the loop.
final class FileChooserBackend: @unchecked Sendable {
    static let objectPath = "/org/freedesktop/portal/desktop"
    static let requestInterface = "org.freedesktop.impl.portal.Request"
    /// How long a forwarded dialog may stay open (the portal itself waits without limit).
    static let forwardTimeout: UInt64 = 7 * 24 * 3600
    /// How long a pick request waits for the person (the longest a request may).
    static let pickTimeout = PickRequest.maximumTimeout

    private let bus: Bus
    private let desktop: DesktopChooser?
    /// The mount whose picker answers; nil when no photofs library is mounted now.
    private let mountpoint: @Sendable () -> String?
    private let daemon: DaemonPicks
    /// Shows the picker for a request (app, mountpoint) where there is a display; nil elsewhere.
    private let openPicker: (@Sendable (String, String) -> Void)?
    private let log: Logger
    private var chooser: BusExport?
    /// The calls not answered yet, by handle.
    private var open: [String: OpenCall] = [:]

    /// One call waiting for its answer.
    private final class OpenCall {
        let call: BusMessage
        var handle: BusExport?
        /// For a pick: the app and mount, and the request's id once the daemon has it.
        var pick: (app: String, mountpoint: String)?
        var requestID: Int?
        var closed = false

        init(call: BusMessage) { self.call = call }
    }

    init(
        bus: Bus, desktop: DesktopChooser?, mountpoint: @escaping @Sendable () -> String?, daemon: DaemonPicks,
        openPicker: (@Sendable (String, String) -> Void)?, log: Logger
    ) {
        self.bus = bus
        self.desktop = desktop
        self.mountpoint = mountpoint
        self.daemon = daemon
        self.openPicker = openPicker
        self.log = log
    }

    /// Serves the FileChooser object and takes the backend's bus name.
    func start() throws(BusError) {
        chooser = try bus.export(
            path: Self.objectPath, interface: DesktopChooser.interface, vtable: photofs_file_chooser_vtable(),
            handler: { [unowned self] call in self.receive(call) })
        try bus.own(DesktopChooser.ownBusName)
    }

    /// Cancels every pick under way and answers every open call with "cancelled" (the
    /// backend is stopping).
    func stop() {
        for (handle, entry) in open {
            if let pick = entry.pick, let id = entry.requestID { daemon.cancel(app: pick.app, id: id, mountpoint: pick.mountpoint) }
            answer(handle, .cancelled)
        }
        bus.flush()
    }

    // MARK: calls

    private func receive(_ call: BusMessage) -> Int32 {
        guard let handle = call.readString("o"), let appID = call.readString(), call.readString() != nil, let title = call.readString(),
            let options = ChooserOptions.read(call)
        else {
            bus.replyError(to: call, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "malformed FileChooser call")
            return 1
        }
        guard open[handle] == nil else {
            bus.replyError(to: call, name: "org.freedesktop.DBus.Error.InvalidArgs", message: "the handle \(handle) is in use")
            return 1
        }
        let entry = OpenCall(call: call)
        open[handle] = entry
        do throws(BusError) {
            entry.handle = try bus.export(
                path: handle, interface: Self.requestInterface, vtable: photofs_request_vtable(),
                handler: { [unowned self] close in self.close(close, handle: handle) })
        } catch {
            log.warning("portal: \(error)")
        }
        let media =
            call.member == "OpenFile" && !options.directory
            ? PhotoDialog.media(filters: options.filters, current: options.currentFilter) : nil
        if let media, let mount = mountpoint() {
            startPick(entry, handle: handle, appID: appID, title: title, media: media, multiple: options.multiple, mountpoint: mount)
        } else {
            if media != nil { log.info("portal: a photo dialog goes to the desktop's chooser: no photofs library is mounted") }
            forward(entry, handle: handle)
        }
        return 1
    }

    /// The app a portal app id names: a Flatpak id as it is, a host app (empty id) `desktop`.
    static func appName(for appID: String) -> String? {
        let name = appID.isEmpty ? "desktop" : appID
        return AppName.isValid(name) ? name : nil
    }

    private func startPick(
        _ entry: OpenCall, handle: String, appID: String, title: String, media: MediaSelector, multiple: Bool, mountpoint: String
    ) {
        guard let app = Self.appName(for: appID) else {
            log.warning("portal: app id '\(appID)' cannot be a photofs app name; the dialog fails")
            answer(handle, .failed)
            return
        }
        entry.pick = (app, mountpoint)
        let request = PickRequest(media: media, limit: multiple ? 0 : 1, ordered: true, mode: .add, timeoutSeconds: Self.pickTimeout)
        log.info(
            "portal: \(app) asks for \(multiple ? "photos" : "one photo") (\(media)); answer with 'photofs pick \(app)'",
            fields: [.app(app)])
        let daemon = self.daemon
        let bus = self.bus
        DispatchQueue.global(qos: .userInitiated).async { [self] in
            let answer: Result<PickAnswer, DaemonPicks.Failure>
            do throws(DaemonPicks.Failure) {
                let submitted = try daemon.submit(app: app, request: request, title: title, mountpoint: mountpoint)
                bus.post { [self] in record(submitted, handle: handle) }
                answer = .success(try daemon.wait(app: app, id: submitted.id, mountpoint: mountpoint))
            } catch {
                answer = .failure(error)
            }
            bus.post { [self] in finishPick(handle, answer) }
        }
    }

    private func record(_ submitted: DaemonPicks.Submitted, handle: String) {
        guard let entry = open[handle], let pick = entry.pick else { return }
        entry.requestID = submitted.id
        if submitted.createdApp {
            log.info("portal: made app \(pick.app) (location strip) for its first request", fields: [.app(pick.app)])
        }
        if entry.closed {
            cancel(pick, id: submitted.id)
        } else {
            openPicker?(pick.app, pick.mountpoint)
        }
    }

    private func finishPick(_ handle: String, _ result: Result<PickAnswer, DaemonPicks.Failure>) {
        guard let pick = open[handle]?.pick else { return }
        switch result {
        case .success(.selected(let names)):
            answer(handle, .chosen(names, app: pick.app, mountpoint: pick.mountpoint))
        case .success(.cancelled), .success(.expired):
            answer(handle, .cancelled)
        case .success(.refused(let reason)):
            log.warning("portal: the request of \(pick.app) was refused: \(reason)", fields: [.app(pick.app)])
            answer(handle, .failed)
        case .failure(let failure):
            log.warning("portal: the pick of \(pick.app) failed: \(failure)", fields: [.app(pick.app)])
            answer(handle, .failed)
        }
    }

    private func cancel(_ pick: (app: String, mountpoint: String), id: Int) {
        let daemon = self.daemon
        DispatchQueue.global(qos: .userInitiated).async { daemon.cancel(app: pick.app, id: id, mountpoint: pick.mountpoint) }
    }

    /// `Request.Close` on a handle: a pick is cancelled (its call then answers 1), a
    /// forwarded dialog is closed by its own backend.
    private func close(_ close: BusMessage, handle: String) -> Int32 {
        if let entry = open[handle], !entry.closed {
            entry.closed = true
            if let pick = entry.pick {
                if let id = entry.requestID { cancel(pick, id: id) }
            } else if let desktop,
                let message = try? bus.methodCall(
                    destination: desktop.busName, path: handle, interface: Self.requestInterface, member: "Close")
            {
                try? bus.call(message, timeout: 30) { _ in }
            }
        }
        if let reply = try? bus.methodReturn(to: close) { try? bus.send(reply) }
        return 1
    }

    /// Sends `response` as the answer of the call of `handle` and forgets it.
    private func answer(_ handle: String, _ response: PortalResponse) {
        guard let entry = finish(handle) else { return }
        do throws(BusError) {
            try sendReturn(to: entry) { (reply) throws(BusError) in try response.append(to: reply) }
        } catch {
            log.warning("portal: the answer could not be sent: \(error)")
        }
    }

    /// Takes the call of `handle` off the open ones and its Request object off the bus.
    private func finish(_ handle: String) -> OpenCall? {
        guard let entry = open.removeValue(forKey: handle) else { return nil }
        entry.handle?.remove()
        return entry
    }

    /// Answers `entry`'s call with a method return whose body `fill` writes.
    private func sendReturn(to entry: OpenCall, _ fill: (BusMessage) throws(BusError) -> Void) throws(BusError) {
        let reply = try bus.methodReturn(to: entry.call)
        try fill(reply)
        try bus.send(reply)
    }

    // MARK: forwarding

    /// Passes the call, unchanged, to the desktop's backend, and its answer back.
    private func forward(_ entry: OpenCall, handle: String) {
        guard let desktop else {
            log.warning("portal: no desktop FileChooser backend to pass a \(entry.call.member) to (see 'photofs portal --help')")
            answer(handle, .failed)
            return
        }
        do throws(BusError) {
            let message = try bus.methodCall(
                destination: desktop.busName, path: Self.objectPath, interface: DesktopChooser.interface, member: entry.call.member)
            try message.copyBody(of: entry.call)
            try bus.call(message, timeout: Self.forwardTimeout) { [unowned self] reply in relay(reply, handle: handle) }
        } catch {
            log.warning("portal: cannot pass \(entry.call.member) to \(desktop.busName): \(error)")
            answer(handle, .failed)
        }
    }

    private func relay(_ reply: BusMessage, handle: String) {
        guard let entry = finish(handle) else { return }
        if let error = reply.errorText {
            log.warning("portal: \(desktop?.busName ?? "the desktop's backend") failed \(entry.call.member): \(error)")
            bus.replyError(to: entry.call, name: "org.freedesktop.DBus.Error.Failed", message: error)
            return
        }
        do throws(BusError) {
            try sendReturn(to: entry) { (answer) throws(BusError) in try answer.copyBody(of: reply) }
        } catch {
            log.warning("portal: the desktop's answer could not be passed on: \(error)")
            bus.replyError(to: entry.call, name: "org.freedesktop.DBus.Error.Failed", message: "photofs could not pass the answer on")
        }
    }
}
