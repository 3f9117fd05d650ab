import Foundation
import Glibc
import Testing

/// `mount-scripts/test` cleans up after failed tests only below the directory of its own
/// run: a photofs mount elsewhere under /tmp (a user's, another program's) stays mounted.
@Suite("the test script's cleanup", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct TestScriptCleanupTests {
    static func isMounted(_ path: String) -> Bool {
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == path }
    }

    @Test func onlyMountsBelowTheRunsDirectoryAreUnmounted() throws {
        let library = try IntegrationLibrary(count: 2, prefix: "photofs-cleanup")
        defer { library.remove() }
        // The run's directory, with a mount a "failed test" left in it.
        let root = temporaryDirectory("photofs-cleanup-root")
        defer { run(["/bin/rm", "-rf", "--one-file-system", root]) }
        let inside = root + "/left/mnt"
        try FileManager.default.createDirectory(atPath: inside, withIntermediateDirectories: true)
        // A user's own mount elsewhere under /tmp, outside the run's directory.
        var template = Array("/tmp/photofs-user-mount-XXXXXX".utf8CString)
        let outside = String(cString: template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }!)
        defer { rmdir(outside) }
        let left = try DaemonProcess(library: library.library, mountpoint: inside, catalog: library.catalog)
        let users = try DaemonProcess(library: library.library, mountpoint: outside, catalog: library.catalog)
        defer { users.unmount() }
        try #require(Self.isMounted(inside) && Self.isMounted(outside))

        let cleanup = run([IntegrationLibrary.mountScripts + "/test", "--unmount-under", root])
        #expect(cleanup.status == 0, "\(cleanup.output)")
        #expect(!Self.isMounted(inside), "the mount below the run's directory is gone")
        #expect(Self.isMounted(outside), "a mount outside the run's directory stays: \(cleanup.output)")
        #expect(left.unmount() == 0, "the daemon of the cleaned-up mount exited cleanly")
        #expect(users.unmount() == 0)
    }
}
