import Foundation
import Glibc
import TestSupport
import Testing

/// `mount-scripts/photofs@.service`, checked by `systemd-analyze verify` as a user unit
/// with one instance, its photofs path pointed at the built binary.
@Suite("systemd user unit")
struct SystemdUnitTests {
    static var analyzer: String? {
        guard DaemonProcess.binaryExists else { return nil }
        return IntegrationLibrary.program("systemd-analyze")
    }

    /// The unit as an instance file, with `/usr/local/bin/photofs` replaced by `binary`.
    static func instance(in directory: String, binary: String, edit: (String) -> String = { $0 }) throws -> String {
        let template = try String(contentsOfFile: IntegrationLibrary.mountScripts + "/photofs@.service", encoding: .utf8)
        let path = directory + "/photofs@home-me-mnt-photos.service"
        try edit(template.replacingOccurrences(of: "/usr/local/bin/photofs", with: binary)).write(
            toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `systemd-analyze verify --user` on a unit file (a private runtime directory
    /// stands in for a login session's).
    static func verify(_ analyzer: String, _ unit: String, runtime: String) -> (status: Int32, output: String) {
        run(["/usr/bin/env", "XDG_RUNTIME_DIR=\(runtime)", analyzer, "verify", "--man=no", "--user", unit])
    }

    @Test(.enabled(if: Skip.unless(analyzer != nil, "systemd unit test: systemd-analyze is not installed (Debian package systemd)")))
    func unitVerifiesCleanly() throws {
        let analyzer = try #require(Self.analyzer)
        let directory = temporaryDirectory("photofs-unit")
        defer { run(["/bin/rm", "-rf", directory]) }
        let unit = try Self.instance(in: directory, binary: DaemonProcess.binary)
        let result = Self.verify(analyzer, unit, runtime: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "", "\(result.output)")
        let text = try String(contentsOfFile: unit, encoding: .utf8)
        #expect(text.contains("ExecStart=\(DaemonProcess.binary) mount -f "))
        #expect(text.contains("ExecStop=-\(DaemonProcess.binary) unmount %f"))
        #expect(text.contains("Restart=on-failure"))
        #expect(text.contains("\nType=notify\n"), "readiness comes from sd_notify once the mount answers")
    }

    /// The check above can fail: a misspelt key or a missing program is reported.
    @Test(.enabled(if: Skip.unless(analyzer != nil, "systemd unit test: systemd-analyze is not installed (Debian package systemd)")))
    func verifyCatchesMistakes() throws {
        let analyzer = try #require(Self.analyzer)
        let directory = temporaryDirectory("photofs-unit")
        defer { run(["/bin/rm", "-rf", directory]) }
        let misspelt = try Self.instance(in: directory, binary: DaemonProcess.binary) {
            $0.replacingOccurrences(of: "RestartSec=", with: "RestartSecs=")
        }
        #expect(Self.verify(analyzer, misspelt, runtime: directory).output.contains("Unknown key"))
        let missing = try Self.instance(in: directory, binary: "/nonexistent/photofs")
        #expect(Self.verify(analyzer, missing, runtime: directory).status != 0)
    }
}
