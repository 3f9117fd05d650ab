import Foundation
import Glibc
import Testing

/// `Type=notify` readiness: the messages a foreground `photofs mount -f` sends to
/// `$NOTIFY_SOCKET` (a datagram socket the test binds, as systemd would): `READY=1` only
/// once the mount answers, with a status with the numbers; a status while a first mount
/// indexes, or once the startup scan of a catalogued library has shown what was new; and
/// `STOPPING=1` when it is unmounted.
@Suite("systemd readiness (sd_notify)", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct ReadinessTests {
    /// Starts `argv` with `NOTIFY_SOCKET` set and stdout/stderr to `log`; its pid.
    static func start(_ argv: [String], notifySocket: String, log: String) -> pid_t? {
        let started = spawnUnblocked(["/usr/bin/env", "NOTIFY_SOCKET=" + notifySocket] + argv) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        return try? started.get()
    }

    static func waitExit(_ pid: pid_t, seconds: Double = 10) -> Int32? {
        var status: Int32 = 0
        for _ in 0..<Int(seconds * 50) {
            if waitpid(pid, &status, WNOHANG) == pid { return shellStatus(status) }
            usleep(20_000)
        }
        return nil
    }

    @Test func foregroundDaemonNotifiesStatusReadyAndStopping() throws {
        let library = try IntegrationLibrary(prefix: "photofs-notify")
        defer { library.remove() }
        try library.grant("editor", [0, 1])
        // A file the catalog does not know yet: the daemon serves the catalog, then indexes it.
        let source = library.library + "/" + library.assets[0].path
        #expect(run(["/bin/cp", source, library.library + "/added.jpg"]).status == 0)
        let socket = try DatagramSocket(path: library.base + "/notify.sock")
        let log = library.base + "/daemon.log"
        let pid = try #require(
            Self.start(
                [DaemonProcess.binary, "mount", "-f", "--quiet", "--catalog", library.catalog, library.library, library.mountpoint],
                notifySocket: socket.path, log: log))
        var finished = false
        defer {
            if !finished {
                run(["/usr/bin/env", "fusermount3", "-u", "-z", library.mountpoint])
                kill(pid, SIGKILL)
                _ = Self.waitExit(pid)
            }
        }
        let untilReady = socket.receive(until: "READY=1", timeout: 60)
        // At READY=1 the mount is there and answers.
        #expect(IntegrationLibrary.isMounted(library.mountpoint))
        #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 2)
        let readyStatus = "serving \(library.assets.count) assets to 1 app on \(library.mountpoint)"
        #expect(
            untilReady == ["READY=1\nSTATUS=" + readyStatus],
            "\(untilReady); log: \((try? String(contentsOfFile: log, encoding: .utf8)) ?? "")")
        // The startup scan indexes the new file after READY=1 and says so.
        let caughtUp = "serving \(library.assets.count + 1) assets to 1 app on \(library.mountpoint)"
        #expect(socket.receive(until: caughtUp, timeout: 30) == ["STATUS=" + caughtUp])
        #expect(IntegrationLibrary.names(library.mountpoint + "/library/all").count == library.assets.count + 1)
        #expect(run([DaemonProcess.binary, "unmount", library.mountpoint]).status == 0)
        let untilStopping = socket.receive(until: "STOPPING=1", timeout: 10)
        #expect(untilStopping == ["STOPPING=1\nSTATUS=unmounting \(library.mountpoint)"])
        #expect(Self.waitExit(pid) == 0)
        finished = true
        // --quiet in front: nothing on stderr but what went wrong.
        let printed = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!printed.contains("photofs: mounted"), "\(printed)")
    }
}
