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

    /// `photofs run --once` started in the background.
    static func start(_ setup: Setup, _ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
        process.arguments = ["run", "--once", "--mountpoint", setup.fixture.mountpoint] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["HOME": setup.home]) { $1 }
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        return process
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
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            try #require(GrantTermsMountTests.eventually(10) { statErrno(setup.view + "/" + first.fileName) == 0 })
            // A grant made by the person while the run goes on belongs to the run too.
            #expect(PickerFile.write(setup.fixture.mountpoint, "select viewer \(later.id)\n").succeeded)
            #expect(PickerFile.read(setup.fixture.mountpoint).contains("select viewer \(later.id) --once "))
            let descriptor = open(setup.view + "/" + later.fileName, O_RDONLY | O_CLOEXEC)
            defer { if descriptor >= 0 { close(descriptor) } }
            #expect(RevocationTests.preadErrno(descriptor) == 0)
            // The sandbox: bwrap (photofs's child) and everything under it, all killed.
            let sandbox = Self.descendants(of: process.processIdentifier)
            try #require(!sandbox.isEmpty, "no sandbox process")
            for pid in sandbox { kill(pid, SIGKILL) }
            process.waitUntilExit()
            #expect(process.terminationStatus == 128 + SIGKILL)
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
            defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
            try #require(GrantTermsMountTests.eventually(10) { statErrno(setup.view + "/" + once.fileName) == 0 })
            #expect(kill(process.processIdentifier, SIGKILL) == 0)
            process.waitUntilExit()
            // Nobody is left to say the run ended: the daemon notices the process is gone.
            let revoked = try GrantTermsMountTests.eventually(3) { try GrantTermsMountTests.names(setup.view) == [kept.fileName] }
            #expect(revoked)
            #expect(try Self.stored(setup)["selected"] as? Int == 1)
            #expect(try Self.stored(setup)["onceRun"] == nil)
        }
    }
}
