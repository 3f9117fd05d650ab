import Foundation
import Glibc
import TestSupport
import Testing

/// The in-process behaviour target needs no root: run as root, this runs that suite again
/// in a child process as `nobody` (copies of this test binary and of photofs it may
/// execute, in a directory of its own), and expects every case to pass there.
@Suite("behaviour: in-process target as a non-root user", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct InProcessAsOtherUserTests {
    @Test func inProcessSuitePassesAsNobody() throws {
        guard getuid() == 0 else {
            try Skip.unavailableHere("not root: the in-process suite already runs as this user (uid \(getuid()))")
        }
        let directory = temporaryDirectory("photofs-nonroot")
        defer { run(["/bin/rm", "-rf", directory]) }
        chmod(directory, 0o755)
        let work = directory + "/work"
        mkdir(work, 0o700)
        chown(work, 65534, 65534)
        let tests = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        for (source, name) in [(tests, "tests.xctest"), (DaemonProcess.binary, "photofs")] {
            let copied = run(["/bin/cp", source, directory + "/" + name])
            try #require(copied.status == 0, "\(copied.output)")
            chmod(directory + "/" + name, 0o755)
        }
        // The child starts in its own work directory: the package it was built in may sit in
        // a directory only root can enter (a clone under `mktemp -d`), and the processes it
        // spawns would inherit a working directory they cannot enter.
        let result = run([
            "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/env", "--chdir=" + work, "HOME=" + work,
            "PHOTOFS_TEST_ROOT=" + work, "PHOTOFS_BIN=" + directory + "/photofs", directory + "/tests.xctest",
            "--testing-library", "swift-testing", "--filter", "InProcessBehaviourTests",
        ])
        #expect(result.status == 0, "\(result.output)")
        // The shared scenarios run as the cases of one parameterized test, beside the two
        // that only the in-process target runs.
        #expect(result.output.contains("with \(ViewBehaviour.shared.count) test cases passed"), "\(result.output)")
        #expect(result.output.contains("Test run with 3 tests in 1 suite passed"), "\(result.output)")
        #expect(!result.output.contains("skipped"), "\(result.output)")
    }
}
