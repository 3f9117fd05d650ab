import Foundation
import Glibc
import Testing

/// `photofs run` of an app bound to a uid, started by root and by a non-root mounting user,
/// with real Unix users: the command sees the app's photos and runs as the uid the view is for.
@Suite(
    "photofs run of a uid-bound app", .serialized,
    .enabled(if: SandboxAvailability.available && UnixUsers.canCreate))
struct SandboxUIDTests {
    /// Root mounts with `--allow-other`, the app is bound to a user: the sandbox runs as
    /// that user and lists the view (root itself, without capabilities, could not enter it).
    @Test func rootRunsABoundAppAsItsUID() throws {
        let viewer = try UnixUsers.create("pfsview")
        defer { UnixUsers.remove(viewer) }
        let fixture = try AccessFixture(count: 8, seed: 41, extra: ["--allow-other"], worldTraversable: true)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let granted = fixture.assets[2]
        #expect(PickerFile.write(fixture.mountpoint, "app add viewer --uid \(viewer.uid)\nselect viewer \(granted.id)\n").succeeded)
        let result = run([
            "/usr/bin/env", "HOME=/root", DaemonProcess.binary, "run", "--mountpoint", fixture.mountpoint, "viewer", "--",
            "/bin/sh", "-c", "id -u; id -g; ls \"$HOME/Pictures\"",
        ])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(result.status == 0, "\(result.output)")
        #expect(lines.first == String(viewer.uid), "runs as the bound uid: \(result.output)")
        #expect(lines.dropFirst().first == String(viewer.gid), "and its group: \(result.output)")
        #expect(lines.dropFirst(2).contains(granted.fileName), "lists the view: \(result.output)")

        finished = true
        #expect(fixture.finish().status == 0)
    }

    /// A non-root user mounts and binds an app to another uid. Privately (no
    /// `--allow-other`) the view is hers (no one else can enter the mount), so her
    /// `photofs run` works; with `--allow-other` (a test-owned `user_allow_other` line in
    /// /etc/fuse.conf, restored afterwards) the view is the bound uid's, which she cannot
    /// become: she is told so, plainly.
    @Test func aNonRootOwnerRunsItsBoundApp() throws {
        let owner = try UnixUsers.create("pfsowner")
        defer { UnixUsers.remove(owner) }
        let base = temporaryDirectory("photofs-run-user")
        defer { run(["/bin/rm", "-rf", base]) }
        chmod(base, 0o755)
        let library = base + "/library"
        let home = base + "/home"
        let mountpoint = base + "/mnt"
        let generated = run([DaemonProcess.binary, "generate", "--count", "4", "--seed", "42", library])
        try #require(generated.status == 0, "\(generated.output)")
        for directory in [home, mountpoint] {
            mkdir(directory, 0o700)
            chown(directory, owner.uid, owner.gid)
        }
        let catalog = home + "/catalog.sqlite"
        // The build may sit in a directory only root can enter (a clone under `mktemp -d`):
        // the owner runs a copy she can execute.
        let binary = base + "/photofs"
        try #require(run(["/usr/bin/install", "-m", "755", DaemonProcess.binary, binary]).status == 0)
        func asOwner(_ arguments: [String]) -> (status: Int32, output: String) {
            run(
                ["/usr/bin/setpriv", "--reuid", String(owner.uid), "--regid", String(owner.gid), "--clear-groups", "--"]
                    + ["/usr/bin/env", "-u", "XDG_RUNTIME_DIR", "HOME=\(home)", binary] + arguments)
        }
        let mounted = asOwner(["mount", "--quiet", "--catalog", catalog, library, mountpoint])
        try #require(mounted.status == 0, "mount as \(owner.name): \(mounted.output)")
        defer { _ = asOwner(["unmount", mountpoint]) }
        let listed = asOwner(["ls", "--json", "--catalog", catalog])
        let rows = (try? JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]]) ?? []
        let first = try #require(rows.first, "photofs ls: \(listed.output)")
        let id = try #require(first["id"] as? String)
        let path = try #require(first["path"] as? String)
        let name = String(path.split(separator: "/").last ?? "")
        #expect(asOwner(["app", "add", "editor", "--uid", "4242", "--catalog", catalog]).status == 0)
        #expect(asOwner(["select", "editor", id, "--catalog", catalog]).status == 0)
        let result = asOwner(["run", "--mountpoint", mountpoint, "editor", "--", "/bin/sh", "-c", "id -u; ls \"$HOME/Pictures\""])
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(result.status == 0, "\(result.output)")
        #expect(lines.first == String(owner.uid))
        #expect(lines.contains(name), "lists the view: \(result.output)")
        let unmounted = asOwner(["unmount", mountpoint])
        #expect(unmounted.status == 0, "\(unmounted.output)")

        // Shared with other users: the bound view is not hers to enter.
        let fuseConf = "/etc/fuse.conf"
        let saved = FileManager.default.contents(atPath: fuseConf)
        defer {
            if let saved { FileManager.default.createFile(atPath: fuseConf, contents: saved) } else { unlink(fuseConf) }
        }
        let original = saved.map { String(decoding: $0, as: UTF8.self) } ?? ""
        try (original + "\nuser_allow_other\n").write(toFile: fuseConf, atomically: false, encoding: .utf8)
        let shared = asOwner(["mount", "--quiet", "--allow-other", "--catalog", catalog, library, mountpoint])
        try #require(shared.status == 0, "mount --allow-other as \(owner.name): \(shared.output)")
        let refused = asOwner(["run", "--mountpoint", mountpoint, "editor", "--", "/bin/ls", "\(home)/Pictures"])
        #expect(refused.status == 5, "\(refused.output)")
        #expect(refused.output.contains("bound to uid 4242") && refused.output.contains("as root"), "\(refused.output)")
        #expect(asOwner(["unmount", mountpoint]).status == 0)
    }
}
