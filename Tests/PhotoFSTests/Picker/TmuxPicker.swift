import Foundation
import Glibc
import Testing

/// `photofs pick editor --terminal` in a detached tmux session on its own server socket: the
/// keys a test sends and the screen it reads back. When it answers a request, the app that
/// asked waits in the background until the picker is done.
final class TmuxPicker {
    let socket: String
    /// The app waiting on its request, when the picker answers one.
    let app: BackgroundProcess?

    /// Opens the picker with no request waiting (the choice replaces what the app has).
    convenience init(_ library: IntegrationLibrary, name: String) throws {
        try self.init(library, name: name, app: nil)
    }

    /// Starts an app that asks for up to `limit` photos through its request file, checks that
    /// the request is pending, and opens the picker on it.
    convenience init(_ library: IntegrationLibrary, name: String, answeringAppIn home: String, limit: Int) throws {
        let app = try RequestFileTests.app(
            library, home: home, "echo limit=\(limit) > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "app")
        #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
        try self.init(library, name: name, app: app)
    }

    /// Starts the session and waits until the picker shows its filter line; closes what it
    /// started when it cannot.
    private init(_ library: IntegrationLibrary, name: String, app: BackgroundProcess?) throws {
        socket = "photofs-test-\(name)-\(getpid())"
        self.app = app
        let command = "\(DaemonProcess.binary) pick editor --terminal --catalog \(library.catalog); echo EXIT=$?; sleep 30"
        do {
            try IntegrationLibrary.check(tmux(["new-session", "-d", "-s", "pick", "-x", "140", "-y", "30", command]))
        } catch {
            close()
            throw error
        }
        _ = screen { $0.contains("Filter:") }
    }

    /// Sends tmux key names (`Space`, `Enter`, `C-f`).
    func press(_ keys: String...) {
        _ = tmux(["send-keys", "-t", "pick"] + keys)
    }

    /// Types `text` as it is.
    func type(_ text: String) {
        _ = tmux(["send-keys", "-t", "pick", "-l", text])
    }

    /// The pane's text once `condition` holds (or after 15 s).
    func screen(until condition: (String) -> Bool) -> String {
        var text = ""
        for _ in 0..<300 {
            text = tmux(["capture-pane", "-p", "-t", "pick"]).output
            if condition(text) { return text }
            usleep(50_000)
        }
        return text
    }

    /// Ends the app if it still waits, and the tmux server with the picker; removes the
    /// server's socket file, which tmux leaves behind.
    func close() {
        app?.stop()
        _ = tmux(["kill-server"])
        unlink((ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp") + "/tmux-\(getuid())/" + socket)
    }

    private func tmux(_ arguments: [String]) -> (status: Int32, output: String) {
        run([TerminalPickerAvailability.tmux, "-L", socket] + arguments)
    }
}
