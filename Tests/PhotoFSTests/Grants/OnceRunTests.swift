import Foundation
import Glibc
import Testing

/// `photofs run --once`: the grants made for a run are revoked when its command exits,
/// normally or killed, and when photofs itself is killed.
@Suite("grants: photofs run --once", .serialized, .enabled(if: SandboxAvailability.available))
struct OnceRunTests {
    struct Setup {
        let fixture: AccessFixture
        let home: String
        let view: String
        /// Assets with a file name of their own.
        let unique: [AccessFixture.Asset]
    }

    /// A mounted library with app `viewer` granted `unique[0]` for good. End with `finish`.
    static func setUp() throws -> Setup {
        let fixture = try AccessFixture(count: 10, seed: 31)
        let home = fixture.base + "/home"
        mkdir(home, 0o700)
        let nameCounts = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let unique = fixture.assets.filter { nameCounts[$0.fileName] == 1 }
        guard unique.count >= 4,
            PickerFile.write(fixture.mountpoint, "app add viewer --location keep\nselect viewer \(unique[0].id)\n").succeeded
        else {
            _ = fixture.finish()
            throw DaemonProcess.StartFailure(description: "the fixture has too few distinct names or refused the app")
        }
        return Setup(fixture: fixture, home: home, view: fixture.path("apps/viewer"), unique: unique)
    }

    /// Unmounts; the daemon must exit cleanly and keep no descriptor.
    static func finish(_ setup: Setup) {
        let end = setup.fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }

    /// `photofs run --once` started in the background (posix_spawn with an empty signal
    /// mask, output to /dev/null); returns its pid.
    static func start(_ setup: Setup, _ arguments: [String]) throws -> pid_t {
        let argv =
            [
                "/usr/bin/env", "HOME=\(setup.home)", DaemonProcess.binary, "run", "--once", "--mountpoint", setup.fixture.mountpoint,
            ] + arguments
        let started = spawnUnblocked(argv) { actions in
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        }
        guard case .success(let pid) = started else {
            throw DaemonProcess.StartFailure(description: "cannot start photofs run")
        }
        return pid
    }

    /// Waits for `pid` and returns its exit code as a shell reports it (128 + signal).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return shellStatus(status)
    }

    /// The direct children of `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let text = (try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/children", encoding: .utf8)) ?? ""
        return text.split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    /// `pid`'s descendants, children before grandchildren.
    static func descendants(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        var queue = children(of: pid)
        while !queue.isEmpty {
            let next = queue.removeFirst()
            found.append(next)
            queue += children(of: next)
        }
        return found
    }

    /// `pid`'s descendants once the sandboxed command (`sleep`) runs among them (up to 10 s):
    /// the run grants before it starts bwrap, so the grant shows before the sandbox exists.
    static func sandbox(of pid: Int32) -> [Int32] {
        var found: [Int32] = []
        _ = GrantTermsMountTests.eventually(10) {
            found = descendants(of: pid)
            return found.contains { (try? String(contentsOfFile: "/proc/\($0)/comm", encoding: .utf8)) == "sleep\n" }
        }
        return found
    }

    static func stored(_ setup: Setup) throws -> [String: Any] {
        try GrantTermsMountTests.stored(setup.fixture, "viewer")
    }

    @Test func grantsForTheRunEndWhenTheCommandExits() throws {
        let setup = try Self.setUp()
        defer { Self.finish(setup) }
        do {
            let (kept, once) = (setup.unique[0], setup.unique[1])
            let result = run(
                [
                    "/usr/bin/env", "HOME=\(setup.home)", DaemonProcess.binary, "run", "--once", "--mountpoint", setup.fixture.mountpoint,
                    "--select", once.id, "viewer", "--", "/bin/sh", "-c", "ls \"$PHOTOFS_DIR\"; exit 3",
                ])
            // The command's exit code, and what it saw: the run's grant and the lasting one.
            #expect(result.status == 3, "\(result.output)")
            let seen = result.output.split(separator: "\n").map(String.init)
            #expect(seen.contains(once.fileName) && seen.contains(kept.fileName), "\(result.output)")
            // Revoked as the command exited; the grant made before the run stays.
            #expect(try GrantTermsMountTests.names(setup.view) == [kept.fileName])
            #expect(statErrno(setup.view + "/" + once.fileName) == ENOENT)
            #expect(try Self.stored(setup)["selected"] as? Int == 1)
            #expect(try Self.stored(setup)["onceRun"] == nil)
        }
    }

    @Test func grantsMadeDuringTheRunEndWhenTheSandboxIsKilled() throws {
        let setup = try Self.setUp()
        defer { Self.finish(setup) }
        do {
            let (kept, first, later) = (setup.unique[0], setup.unique[1], setup.unique[2])
            let process = try Self.start(setup, ["--select", first.id, "viewer", "--", "/bin/sleep", "60"])
            var reaped = false
            defer {
                if !reaped {
                    kill(process, SIGKILL)
                    _ = Self.wait(process)
                }
            }
            try #require(GrantTermsMountTests.eventually(10) { statErrno(setup.view + "/" + first.fileName) == 0 })
            // A grant made by the person while the run goes on belongs to the run too.
            #expect(PickerFile.write(setup.fixture.mountpoint, "select viewer \(later.id)\n").succeeded)
            #expect(PickerFile.read(setup.fixture.mountpoint).contains("select viewer \(later.id) --once "))
            let descriptor = open(setup.view + "/" + later.fileName, O_RDONLY | O_CLOEXEC)
            defer { if descriptor >= 0 { close(descriptor) } }
            #expect(RevocationTests.preadErrno(descriptor) == 0)
            // The sandbox: bwrap (photofs's child) and everything under it, all killed.
            // `env` has become photofs run: its descendants are bwrap and the command.
            let sandbox = Self.sandbox(of: process)
            try #require(!sandbox.isEmpty, "no sandbox process")
            for pid in sandbox { kill(pid, SIGKILL) }
            reaped = true
            #expect(Self.wait(process) == 128 + SIGKILL)
            #expect(try GrantTermsMountTests.names(setup.view) == [kept.fileName])
            #expect(RevocationTests.preadErrno(descriptor) == EACCES)
            #expect(try Self.stored(setup)["selected"] as? Int == 1)
        }
    }

    @Test func theDaemonEndsTheRunWhenPhotofsItselfIsKilled() throws {
        let setup = try Self.setUp()
        defer { Self.finish(setup) }
        do {
            let (kept, once) = (setup.unique[0], setup.unique[3])
            let process = try Self.start(setup, ["--select", once.id, "viewer", "--", "/bin/sleep", "60"])
            var reaped = false
            defer {
                if !reaped {
                    kill(process, SIGKILL)
                    _ = Self.wait(process)
                }
            }
            try #require(GrantTermsMountTests.eventually(10) { statErrno(setup.view + "/" + once.fileName) == 0 })
            let sandbox = Self.sandbox(of: process)
            #expect(kill(process, SIGKILL) == 0)
            reaped = true
            #expect(Self.wait(process) == 128 + SIGKILL)
            // Nobody is left to say the run ended: the daemon notices the process is gone.
            let revoked = try GrantTermsMountTests.eventually(3) { try GrantTermsMountTests.names(setup.view) == [kept.fileName] }
            #expect(revoked)
            // bwrap's --die-with-parent is not what this test is about: whatever of the
            // sandbox outlived photofs is killed here, else its bind of the view would keep
            // the FUSE session (and the daemon) alive past the unmount.
            let survivors = sandbox.filter { kill($0, 0) == 0 }
            print("sandbox processes alive after photofs was killed: \(survivors.count) of \(sandbox.count)")
            for pid in survivors { kill(pid, SIGKILL) }
            _ = GrantTermsMountTests.eventually(2) { survivors.allSatisfy { kill($0, 0) != 0 } }
            #expect(try Self.stored(setup)["selected"] as? Int == 1)
            #expect(try Self.stored(setup)["onceRun"] == nil)
        }
    }
}
