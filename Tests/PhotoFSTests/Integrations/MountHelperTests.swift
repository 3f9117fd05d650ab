import Foundation
import Glibc
import TestSupport
import Testing

/// `mount-scripts/mount.fuse.photofs`, the mount(8) helper: how it maps options (run
/// directly in its fake mode, which prints the photofs command line), and real mounts
/// through `mount -t fuse.photofs` and a scratch fstab, read and unmounted with `umount`.
@Suite("mount(8) helper", .serialized)
struct MountHelperTests {
    static let helper = IntegrationLibrary.mountScripts + "/mount.fuse.photofs"

    /// The helper's fake run (`-f`): its exit status and the photofs arguments it would use.
    static func fake(_ options: String) -> (status: Int32, output: String) {
        run(["/usr/bin/env", "PHOTOFS_BIN=/bin/true", "/bin/sh", helper, "/lib rary", "/mnt point", "-f", "-o", options])
    }

    @Test(arguments: [
        // photofs options become flags; FUSE options stay in -o; mount(8) options vanish.
        ("rw,catalog=/c/x y.sqlite,nofail", "mount --quiet --catalog /c/x y.sqlite -- /lib rary /mnt point"),
        ("ro,allow_other,nosuid,nodev,noatime", "mount --quiet --allow-other -o ro,nosuid,nodev,noatime -- /lib rary /mnt point"),
        ("defaults,_netdev,noauto,user,users,nouser,x-systemd.automount,comment=x", "mount --quiet -- /lib rary /mnt point"),
        ("default_permissions,auto_unmount,debug", "mount --quiet --debug -o default_permissions,auto_unmount -- /lib rary /mnt point"),
    ])
    func optionsAreMapped(options: String, expected: String) {
        let result = Self.fake(options)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .newlines) == "mount.fuse.photofs: /bin/true \(expected)")
    }

    @Test(arguments: ["colour=blue", "nonempty", "catalog=", "rw,bogus,ro"])
    func unknownOptionsAreNamed(option: String) {
        let result = Self.fake(option)
        #expect(result.status == 1)
        let named = option.split(separator: ",").first { !["rw", "ro"].contains($0) }.map(String.init) ?? option
        #expect(result.output.contains("unknown option '\(named)'"), "\(result.output)")
    }

    @Test func missingArgumentsAreAUsageError() {
        let result = run(["/bin/sh", Self.helper, "/only-one"])
        #expect(result.status == 1)
        #expect(result.output.contains("usage: mount.fuse.photofs LIBRARY MOUNTPOINT"))
    }

    /// mount(8) looks for helpers in /sbin only, so the real-mount tests need root to put
    /// the helper there for the test (and take it away after).
    static var canInstallHelper: Bool {
        guard FuseAvailability.available, DaemonProcess.binaryExists else { return false }
        if getuid() != 0 {
            return Skip.unless(false, "mount(8) test: installing /sbin/mount.fuse.photofs needs root")
        }
        if IntegrationLibrary.program("mount") == nil {
            return Skip.unless(false, "mount(8) test: mount(8) is not installed")
        }
        return true
    }

    /// Installs the helper as /sbin/mount.fuse.photofs for the duration of `body`, unless an
    /// identical one is already there; a different installed helper is left alone (skip).
    static func withInstalledHelper(_ body: () throws -> Void) throws {
        let installed = "/sbin/mount.fuse.photofs"
        let ours = try Data(contentsOf: URL(fileURLWithPath: helper))
        if access(installed, F_OK) == 0 {
            guard (try? Data(contentsOf: URL(fileURLWithPath: installed))) == ours else {
                try Skip.because("skipping mount(8) test: a different \(installed) is installed; not replacing it")
            }
            try body()
            return
        }
        #expect(run(["/usr/bin/install", "-m", "755", helper, installed]).status == 0)
        defer { unlink(installed) }
        try body()
    }

    /// Mounts with `command`, reads a granted file through the mount, unmounts with umount(8)
    /// and checks that the daemon went away.
    static func mountReadUnmount(_ library: IntegrationLibrary, _ command: [String]) throws {
        let names = try library.grant("viewer", [1, 3])
        let mounted = run(["/usr/bin/env", "PHOTOFS_BIN=\(DaemonProcess.binary)"] + command)
        defer {
            if IntegrationLibrary.isMounted(library.mountpoint) { run(["/usr/bin/env", "fusermount3", "-u", "-z", library.mountpoint]) }
        }
        try #require(mounted.status == 0, "\(mounted.output)")
        #expect(mounted.output == "", "a mount helper prints nothing on success")
        #expect(IntegrationLibrary.isMounted(library.mountpoint))
        #expect(IntegrationLibrary.names(library.mountpoint + "/apps/viewer") == names.sorted())
        let original = try Data(contentsOf: URL(fileURLWithPath: library.library + "/" + library.assets[1].path))
        let served = try Data(contentsOf: URL(fileURLWithPath: library.mountpoint + "/apps/viewer/" + names[0]))
        #expect(served.count == original.count)
        #expect(run(["/bin/umount", library.mountpoint]).status == 0)
        #expect(!IntegrationLibrary.isMounted(library.mountpoint))
        #expect(waitForDaemonExit(library.base), "the daemon of \(library.base) did not exit after umount")
    }

    /// Waits until no photofs process mentions `base` in its command line; kills such a
    /// process (ours: its arguments name our temporary directory) after 10 s.
    static func waitForDaemonExit(_ base: String) -> Bool {
        func daemons() -> [pid_t] {
            IntegrationLibrary.names("/proc").compactMap { pid_t($0) }.filter { pid in
                let arguments = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
                return String(decoding: arguments, as: UTF8.self).contains(base + "/mnt")
            }
        }
        for _ in 0..<500 {
            if daemons().isEmpty { return true }
            usleep(20_000)
        }
        daemons().forEach { kill($0, SIGKILL) }
        return false
    }

    @Test(.enabled(if: canInstallHelper)) func mountTypeFusePhotofs() throws {
        let library = try IntegrationLibrary()
        defer { library.remove() }
        try Self.withInstalledHelper {
            try Self.mountReadUnmount(
                library,
                [
                    "/bin/mount", "-t", "fuse.photofs", library.library, library.mountpoint, "-o",
                    "catalog=\(library.catalog),nosuid,nodev,nofail",
                ])
        }
    }

    @Test(.enabled(if: canInstallHelper)) func mountThroughScratchFstab() throws {
        let library = try IntegrationLibrary()
        defer { library.remove() }
        // fstab escapes a space as \040; the generated paths have none, but the catalog
        // option goes through mount(8)'s own parser all the same.
        let fstab = library.base + "/fstab"
        let line =
            "\(library.library) \(library.mountpoint) fuse.photofs defaults,nofail,x-systemd.automount,_netdev,catalog=\(library.catalog) 0 0\n"
        try line.write(toFile: fstab, atomically: true, encoding: .utf8)
        try Self.withInstalledHelper {
            try Self.mountReadUnmount(library, ["/bin/mount", "--fstab", fstab, library.mountpoint])
        }
    }
}
