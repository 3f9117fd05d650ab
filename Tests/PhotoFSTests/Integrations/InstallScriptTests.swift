import Foundation
import Glibc
import Testing

/// `mount-scripts/install`, staged under a temporary `--destdir`: what it puts where, that a
/// second run changes nothing, and that `--uninstall` takes it all away again.
@Suite("install script", .enabled(if: DaemonProcess.binaryExists))
struct InstallScriptTests {
    static let script = IntegrationLibrary.mountScripts + "/install"

    static let files: [(path: String, mode: mode_t)] = [
        ("/opt/pf/bin/photofs", 0o755),
        ("/opt/pf/bin/photofs-sandbox", 0o755),
        ("/sbin/mount.fuse.photofs", 0o755),
        ("/opt/pf/share/bash-completion/completions/photofs", 0o644),
        ("/opt/pf/share/zsh/site-functions/_photofs", 0o644),
        ("/opt/pf/share/fish/vendor_completions.d/photofs.fish", 0o644),
        ("/opt/pf/share/man/man1/photofs.1", 0o644),
        ("/opt/pf/lib/systemd/user/photofs@.service", 0o644),
        ("/opt/pf/lib/systemd/user/photofs-portal.service", 0o644),
        ("/opt/pf/share/dbus-1/services/org.freedesktop.impl.portal.desktop.photofs.service", 0o644),
        ("/usr/share/xdg-desktop-portal/portals/photofs.portal", 0o644),
    ]

    @Test func installIsIdempotentAndUninstallRemovesEverything() throws {
        let destdir = temporaryDirectory("photofs-install")
        defer { run(["/bin/rm", "-rf", destdir]) }
        let arguments = [Self.script, "--binary", DaemonProcess.binary, "--prefix", "/opt/pf", "--destdir", destdir]
        let first = run(arguments)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.output.split(separator: "\n").filter { $0.hasPrefix("installed ") }.count == Self.files.count, "\(first.output)")
        for file in Self.files {
            var status = stat()
            #expect(stat(destdir + file.path, &status) == 0, "missing \(file.path)")
            #expect(status.st_mode & 0o777 == file.mode, "mode of \(file.path)")
        }
        let completion = try String(contentsOfFile: destdir + "/opt/pf/share/bash-completion/completions/photofs", encoding: .utf8)
        #expect(completion == run([DaemonProcess.binary, "completion", "bash"]).output)
        for (shell, path) in [("zsh", "zsh/site-functions/_photofs"), ("fish", "fish/vendor_completions.d/photofs.fish")] {
            let script = try String(contentsOfFile: destdir + "/opt/pf/share/" + path, encoding: .utf8)
            #expect(script == run([DaemonProcess.binary, "completion", shell]).output)
        }
        let manual = try String(contentsOfFile: destdir + "/opt/pf/share/man/man1/photofs.1", encoding: .utf8)
        #expect(manual == run([DaemonProcess.binary, "man"]).output)
        let unit = try String(contentsOfFile: destdir + "/opt/pf/lib/systemd/user/photofs@.service", encoding: .utf8)
        #expect(unit.contains("ExecStart=/opt/pf/bin/photofs mount -f"))
        #expect(!unit.contains("/usr/local/bin/photofs"))
        // The portal backend: activated by D-Bus through its systemd unit, both running the installed binary.
        let portalUnit = try String(contentsOfFile: destdir + "/opt/pf/lib/systemd/user/photofs-portal.service", encoding: .utf8)
        #expect(portalUnit.contains("ExecStart=/opt/pf/bin/photofs portal\n") && portalUnit.contains("Type=dbus"))
        #expect(portalUnit.contains("BusName=org.freedesktop.impl.portal.desktop.photofs"))
        let activation = try String(
            contentsOfFile: destdir + "/opt/pf/share/dbus-1/services/org.freedesktop.impl.portal.desktop.photofs.service", encoding: .utf8)
        #expect(activation.contains("Name=org.freedesktop.impl.portal.desktop.photofs\nExec=/opt/pf/bin/photofs portal\n"))
        #expect(activation.contains("SystemdService=photofs-portal.service"))
        let portal = try String(contentsOfFile: destdir + "/usr/share/xdg-desktop-portal/portals/photofs.portal", encoding: .utf8)
        #expect(portal.contains("Interfaces=org.freedesktop.impl.portal.FileChooser;") && portal.contains("UseIn=photofs"))

        let second = run(arguments)
        #expect(second.status == 0)
        #expect(second.output.split(separator: "\n").allSatisfy { $0.hasPrefix("unchanged ") }, "\(second.output)")

        let removed = run([Self.script, "--uninstall", "--prefix", "/opt/pf", "--destdir", destdir])
        #expect(removed.status == 0)
        for file in Self.files { #expect(access(destdir + file.path, F_OK) != 0, "left behind: \(file.path)") }
    }

    @Test func unknownArgumentsAndMissingBinaryAreRefused() {
        let destdir = temporaryDirectory("photofs-install")
        defer { run(["/bin/rm", "-rf", destdir]) }
        #expect(run([Self.script, "--colour"]).status == 2)
        #expect(run([Self.script, "--binary", destdir + "/nothing", "--destdir", destdir]).status == 4)
    }
}
