import Foundation
import Glibc
import Testing

/// What other callers learn from the kernel's caches, and which errno a held descriptor
/// gets, through a real mount run by root with `--allow-other` and real Unix users.
@Suite(
    "access: caches across callers and errnos of held descriptors", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists && UnixUsers.canCreate))
struct CallerErrnoTests {
    /// After the owner listed `apps/`, a bound uid still cannot see another app's
    /// directory: the names under `apps/` are not served from the kernel's cache.
    @Test func ownersListingDoesNotShowOtherAppsToABoundUID() throws {
        let viewer = try UnixUsers.create("pfsview")
        defer { UnixUsers.remove(viewer) }
        let fixture = try AccessFixture(count: 12, seed: 31, extra: ["--allow-other"], worldTraversable: true)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        #expect(
            PickerFile.write(mnt, "app add viewer --uid \(viewer.uid)\napp add other\nselect other \(fixture.assets[0].id)\n").succeeded)
        let probes = [
            UIDBindingTests.Probe(label: "stat apps/other", operation: "stat", path: fixture.path("apps/other")),
            UIDBindingTests.Probe(label: "stat apps/viewer", operation: "stat", path: fixture.path("apps/viewer")),
            UIDBindingTests.Probe(label: "list apps", operation: "list", path: fixture.path("apps")),
        ]
        // Cold: nothing cached.
        let cold = try UIDBindingTests.probe(as: viewer, probes)
        // Warm: the owner listed and looked everything up just before.
        _ = try ByteFiles.list(Array(fixture.path("apps").utf8))
        _ = try ByteFiles.stat(Array(fixture.path("apps/other").utf8))
        _ = run(["/usr/bin/ls", "-la", fixture.path("apps")])
        let warm = try UIDBindingTests.probe(as: viewer, probes)
        print("bound uid, cold cache: \(cold.codes); after the owner listed apps/: \(warm.codes)")
        #expect(cold.codes["stat apps/other"] == Int(ENOENT))
        #expect(warm.codes["stat apps/other"] == Int(ENOENT), "after the owner's listing the bound uid sees apps/other")
        #expect(warm.codes["stat apps/viewer"] == 0)
        #expect(warm.listings["list apps"] == ["viewer"])

        finished = true
        #expect(fixture.finish().status == 0)
    }

    /// The picker socket serves the mounting user and root only: another user cannot reach
    /// it (0700 directory, 0600 socket), and the owner's requests work.
    @Test func otherUsersCannotUseThePickerSocket() throws {
        let viewer = try UnixUsers.create("pfsview")
        defer { UnixUsers.remove(viewer) }
        let fixture = try AccessFixture(count: 4, seed: 33, extra: ["--allow-other"], worldTraversable: true)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let socket = PickerSocket.path(mountpoint: fixture.mountpoint)
        #expect(PickerSocket.send(fixture.mountpoint, "app add viewer --uid \(viewer.uid)\n").errno == 0)
        var status = stat()
        #expect(stat(socket, &status) == 0 && status.st_mode & 0o777 == 0o600, "socket mode")
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(sys.argv[1])
                s.sendall(b"app remove viewer\\n")
                s.shutdown(socket.SHUT_WR)
                print("answered", s.recv(4096))
            except OSError as e:
                print("refused", e.errno)
            """
        let result = run([
            "/usr/bin/setpriv", "--reuid", String(viewer.uid), "--regid", String(viewer.gid), "--clear-groups", "--",
            "/usr/bin/python3", "-c", script, socket,
        ])
        #expect(result.output.hasPrefix("refused \(EACCES)"), "another user on the picker socket: \(result.output)")
        #expect(PickerFile.selection(in: PickerFile.read(fixture.mountpoint), app: "viewer").isEmpty)
        #expect(PickerFile.read(fixture.mountpoint).contains("app add viewer"), "the app is still there")

        finished = true
        #expect(fixture.finish().status == 0)
    }

    /// A descriptor held across a revocation gets EACCES for reads and `fstat`; so does a
    /// bound uid's descriptor once its app is unbound or removed. Names get ENOENT.
    @Test func heldDescriptorsGetEACCESAndNamesENOENT() throws {
        let viewer = try UnixUsers.create("pfsview")
        defer { UnixUsers.remove(viewer) }
        let fixture = try AccessFixture(count: 12, seed: 32, extra: ["--allow-other"], worldTraversable: true)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let names = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let unique = fixture.assets.filter { names[$0.fileName] == 1 }
        try #require(unique.count >= 3)
        let (a, b) = (unique[0], unique[1])
        #expect(
            PickerFile.write(mnt, "app add mine\napp add viewer --uid \(viewer.uid)\nselect mine \(a.id)\nselect viewer \(b.id)\n")
                .succeeded)

        // The owner's descriptor, then a deselect.
        let path = fixture.path("apps/mine/" + a.fileName)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        var fdOpen = true
        defer { if fdOpen { close(fd) } }
        #expect(RevocationTests.preadErrno(fd) == 0)
        #expect(PickerFile.write(mnt, "deselect mine \(a.id)\n").succeeded)
        var status = stat()
        let fstatCode = fstat(fd, &status) == 0 ? 0 : errno
        #expect(RevocationTests.preadErrno(fd) == EACCES, "read after a deselect")
        #expect(fstatCode == EACCES, "fstat after a deselect: \(String(cString: strerror(fstatCode)))")
        #expect(statErrno(path) == ENOENT)
        #expect(openErrno(path) == ENOENT)
        close(fd)
        fdOpen = false

        // The bound uid's descriptor, then the app is unbound; then removed. Then the same
        // while the uid is bound to a second app too (so it is no stranger afterwards).
        for change in [
            "app set viewer --uid none\n", "app remove viewer\n", "also\n", "app set viewer --uid none\n", "app remove viewer\n",
        ] {
            if change == "also\n" {
                #expect(PickerFile.write(mnt, "app add other --uid \(viewer.uid)\n").succeeded)
                continue
            }
            if change.hasPrefix("app remove") {
                #expect(PickerFile.write(mnt, "app set viewer --uid \(viewer.uid)\n").succeeded)
            }
            if change.hasPrefix("app set"), !PickerFile.read(mnt).contains("app add viewer") {
                #expect(PickerFile.write(mnt, "app add viewer --uid \(viewer.uid)\nselect viewer \(b.id)\n").succeeded)
            }
            let holder = try Holder(user: viewer, path: fixture.path("apps/viewer/" + b.fileName))
            #expect(holder.ask() == "0 0", "the bound uid reads and fstats its own file")
            #expect(PickerFile.write(mnt, change).succeeded)
            let after = holder.ask()
            print("a bound uid's descriptor after '\(change.dropLast())': read, fstat → \(after)")
            #expect(after == "\(EACCES) \(EACCES)", "after '\(change.dropLast())': read, fstat → \(after)")
            holder.finish()
        }

        finished = true
        #expect(fixture.finish().status == 0)
    }

    /// A process of another user that opens a file and, on each line from us, reads and
    /// `fstat`s it and answers with both errnos (0: it worked).
    final class Holder {
        private let process = Process()
        private let input = Pipe()
        private let output = Pipe()

        init(user: UnixUsers.User, path: String) throws {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = [
                "--reuid", String(user.uid), "--regid", String(user.gid), "--clear-groups", "--", "/usr/bin/python3", "-c", Self.script,
                path,
            ]
            process.standardInput = input
            process.standardOutput = output
            try process.run()
        }

        func ask() -> String {
            input.fileHandleForWriting.write(Data("go\n".utf8))
            return output.fileHandleForReading.availableLine()
        }

        func finish() {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }

        static let script = """
            import os, sys
            fd = os.open(sys.argv[1], os.O_RDONLY)
            def code(f):
                try:
                    f()
                    return 0
                except OSError as e:
                    return e.errno
            for line in sys.stdin:
                print(code(lambda: os.pread(fd, 4096, 0)), code(lambda: os.fstat(fd)), flush=True)
            """
    }
}
