import Foundation
import Glibc
import TestSupport

/// A private session bus (`dbus-run-session` with a configuration that activates nothing)
/// with the processes of a desktop's file dialogs on it: the stand-in desktop backend
/// (`Tests/Portal/stub_file_chooser.py`), `photofs portal`, the real xdg-desktop-portal
/// frontend (choosing photofs through the shipped `photofs.portal` file and
/// `XDG_CURRENT_DESKTOP=photofs:GNOME`, as on Debian 12), and clients. Everything it
/// started is ended by pid in `stop`.
final class PortalSession {
    static let frontend = "/usr/libexec/xdg-desktop-portal"
    static let python = "/usr/bin/python3"
    static let scripts = IntegrationLibrary.packageRoot + "/Tests/Portal"
    /// The stand-in desktop backend's bus name.
    static let stubName = "org.freedesktop.impl.portal.desktop.stub"

    /// Whether dbus-run-session, the portal frontend and python3-gi are here.
    static var available: Bool {
        guard FuseAvailability.available, DaemonProcess.binaryExists else { return false }
        guard IntegrationLibrary.program("dbus-run-session") != nil else {
            return Skip.unless(false, "portal test: dbus-run-session is missing (mount-scripts/install-deps installs dbus)")
        }
        guard access(frontend, X_OK) == 0 else {
            return Skip.unless(false, "portal test: \(frontend) is missing (mount-scripts/install-deps installs xdg-desktop-portal)")
        }
        guard run([python, "-c", "from gi.repository import Gio"]).status == 0 else {
            return Skip.unless(false, "portal test: python3-gi is missing (mount-scripts/install-deps installs python3-gi)")
        }
        return true
    }

    let base: String
    let address: String
    private let bus: BackgroundProcess
    /// The shell that holds the bus open: when it ends, dbus-run-session ends the bus.
    private let holder: pid_t
    private var started: [BackgroundProcess] = []

    init(base: String) throws {
        self.base = base
        mkdir(base, 0o700)
        mkdir(base + "/services", 0o755)
        mkdir(base + "/portals", 0o755)
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:dir=\(base)</listen>
              <auth>EXTERNAL</auth>
              <servicedir>\(base)/services</servicedir>
              <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
            </busconfig>
            """
        try configuration.write(toFile: base + "/bus.conf", atomically: true, encoding: .utf8)
        let shipped = try String(contentsOfFile: IntegrationLibrary.mountScripts + "/photofs.portal", encoding: .utf8)
        try shipped.write(toFile: base + "/portals/photofs.portal", atomically: true, encoding: .utf8)
        bus = try BackgroundProcess(
            [
                "/usr/bin/env", "dbus-run-session", "--config-file=\(base)/bus.conf", "--", "/bin/sh", "-c",
                "echo \"address=$DBUS_SESSION_BUS_ADDRESS\"; echo \"holder=$$\"; exec sleep 3600",
            ], output: base + "/bus.out")
        guard bus.waitForOutput(timeout: 20, { $0.contains("holder=") }) else {
            throw IntegrationLibrary.SetupFailure(description: "no private bus: \(bus.output)")
        }
        let lines = bus.output.split(separator: "\n")
        address = String(lines.first { $0.hasPrefix("address=") }?.dropFirst(8) ?? "")
        holder = pid_t(lines.first { $0.hasPrefix("holder=") }?.dropFirst(7) ?? "") ?? 0
    }

    /// The variables every process on this bus gets.
    var variables: [String] {
        ["DBUS_SESSION_BUS_ADDRESS=\(address)", "XDG_CURRENT_DESKTOP=photofs:GNOME", "XDG_DESKTOP_PORTAL_DIR=\(base)/portals"]
    }

    /// Starts `argv` on this bus in the background.
    func start(_ argv: [String], name: String, variables extra: [String] = []) throws -> BackgroundProcess {
        let process = try BackgroundProcess(["/usr/bin/env"] + variables + extra + argv, output: base + "/\(name).out")
        started.append(process)
        return process
    }

    /// The stand-in desktop backend, once it owns its name.
    func startStub() throws -> BackgroundProcess {
        let stub = try start([Self.python, Self.scripts + "/stub_file_chooser.py", Self.stubName], name: "stub")
        guard stub.waitForOutput(timeout: 20, { $0.contains("ready") }) else {
            throw IntegrationLibrary.SetupFailure(description: "the stub backend did not start: \(stub.output)")
        }
        return stub
    }

    /// `photofs portal` answering from `mountpoint`, other dialogs to the stub, once it owns its name.
    func startBackend(mountpoint: String, _ arguments: [String], variables extra: [String]) throws -> BackgroundProcess {
        let backend = try start(
            [DaemonProcess.binary, "portal", "--mountpoint", mountpoint, "--desktop", Self.stubName, "--log-level", "debug"] + arguments,
            name: "backend", variables: extra)
        guard backend.waitForOutput(timeout: 20, { $0.contains("portal: serving") }) else {
            throw IntegrationLibrary.SetupFailure(description: "photofs portal did not start: \(backend.output)")
        }
        return backend
    }

    /// The xdg-desktop-portal frontend, once it owns org.freedesktop.portal.Desktop.
    func startFrontend() throws -> BackgroundProcess {
        let frontend = try start([Self.frontend, "--verbose", "--replace"], name: "frontend")
        guard frontend.waitForOutput(timeout: 30, { $0.contains("org.freedesktop.portal.Desktop acquired") }) else {
            throw IntegrationLibrary.SetupFailure(description: "xdg-desktop-portal did not start: \(frontend.output)")
        }
        return frontend
    }

    /// `portal_client.py ARGUMENTS` in the background (its answer is its last JSON line).
    func client(_ arguments: [String], name: String) throws -> BackgroundProcess {
        try start([Self.python, Self.scripts + "/portal_client.py"] + arguments, name: name)
    }

    /// The client's answer: its last JSON line, once it has exited (up to `timeout` s).
    static func answer(of client: BackgroundProcess, timeout: Double = 60) -> [String: Any] {
        _ = client.wait(timeout: timeout)
        guard let line = client.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
    }

    /// Ends every process it started (newest first), then the bus.
    func stop() {
        for process in started.reversed() { process.stop() }
        started.removeAll()
        if holder > 0 { kill(holder, SIGTERM) }
        bus.stop()
    }

    deinit { stop() }
}
