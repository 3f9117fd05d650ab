import Dispatch
import FuseKit
import PhotoCore
import SystemKit

/// Tells the owner about app requests: one log line per request and per answer, and a
/// desktop notification (`notify-send`, else `gdbus` to org.freedesktop.Notifications)
/// when the daemon has a session bus. The notification never names a photo.
struct RequestNotifier: Sendable {
    let log: Logger
    /// `DBUS_SESSION_BUS_ADDRESS` of the daemon's environment, if any.
    let sessionBus: String?
    /// The notifier programs found on the PATH.
    let notifySend: String?
    let gdbus: String?
    /// `photofs pick --window --catalog CATALOG`, started on a request when the daemon has a display.
    let picker: [String]?

    init(log: Logger, environment: Environment, catalog: String) {
        self.log = log
        let display = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment.variables[$0] ?? "").isEmpty }
        self.picker = display ? [environment.executablePath, "pick", "--window", "--catalog", catalog] : nil
        self.sessionBus = environment.variables["DBUS_SESSION_BUS_ADDRESS"].flatMap { $0.isEmpty ? nil : $0 }
        let path = environment.variables["PATH"] ?? "/usr/bin:/bin"
        self.notifySend = Self.find("notify-send", in: path)
        self.gdbus = Self.find("gdbus", in: path)
    }

    /// Drains `events` (the request broker's) on a thread of its own for as long as the
    /// daemon runs: the broker only posts, and a request's write never waits for a log
    /// line, a notification or the picker's start.
    func start(draining events: Outbox<RequestEvent>) {
        events.subscribe()
        DispatchQueue(label: "photofs.request-events").async {
            while let batch = events.take() {
                for event in batch { handle(event) }
            }
        }
    }

    func handle(_ event: RequestEvent) {
        switch event {
        case .submitted(let pending):
            let limit = pending.scope.limit.map { "up to \($0)" } ?? "any number of"
            let media = pending.scope.request.media.map { " (\($0))" } ?? ""
            log.info(
                "request \(pending.id): app \(pending.app) asks for \(limit) photos\(media), \(pending.scope.request.mode.rawValue); answer with 'photofs pick \(pending.app)'"
            )
            notify(title: "\(pending.app) asks for photos", body: "Choose \(limit) photos\(media): photofs pick \(pending.app)")
            // With a display, the picker opens on the request by itself, as a window of its own
            // (one per request: a picker the desktop portal opened already makes this one stop).
            if let picker { start(picker + [pending.app]) }
        case .settled(let pending, let answer):
            log.info("request \(pending.id) of app \(pending.app): \(answer.summary)")
        case .withdrawn(let pending):
            log.info("request \(pending.id) of app \(pending.app) withdrawn: no process of the app has its request file open")
        }
    }

    /// Sends the notification on a background queue (the request's write does not wait for it).
    private func notify(title: String, body: String) {
        guard sessionBus != nil else { return }
        let argv: [String]
        if let notifySend {
            argv = [notifySend, "--app-name=photofs", title, body]
        } else if let gdbus {
            argv = [
                gdbus, "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path", "/org/freedesktop/Notifications",
                "--method", "org.freedesktop.Notifications.Notify", "photofs", "0", "", title, body, "[]", "{}", "10000",
            ]
        } else {
            return
        }
        start(argv)
    }

    /// Runs `argv` with its output discarded, and reaps it on a background thread.
    private func start(_ argv: [String]) {
        Spawn.startReaped(argv)
    }

    private static func find(_ program: String, in path: String) -> String? {
        for directory in path.split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if FileSystem.isExecutable(candidate) { return candidate }
        }
        return nil
    }
}
