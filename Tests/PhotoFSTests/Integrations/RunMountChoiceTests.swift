import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs run APP` without `--mountpoint` while several libraries are mounted: it takes
/// the one mount that has APP, and says which mounts it could mean when none or several do.
@Suite("photofs run chooses the mount", .serialized, .enabled(if: SandboxAvailability.available))
struct RunMountChoiceTests {
    @Test func theOnlyMountWithTheAppIsTaken() throws {
        // App names no other mount on a shared machine has.
        let solo = "solo\(getpid())"
        let both = "both\(getpid())"
        let first = try IntegrationLibrary(prefix: "photofs-choice")
        defer { first.remove() }
        let second = try IntegrationLibrary(prefix: "photofs-choice")
        defer { second.remove() }
        let one = try DaemonProcess(library: first.library, mountpoint: first.mountpoint, catalog: first.catalog)
        defer { one.unmount() }
        let two = try DaemonProcess(library: second.library, mountpoint: second.mountpoint, catalog: second.catalog)
        defer { two.unmount() }
        let names = try second.grant(solo, [1])
        try first.photofs(["app", "add", both])
        try second.photofs(["app", "add", both])
        let home = second.base + "/home"
        mkdir(home, 0o700)
        let found = SandboxTests.sandbox(home, [solo, "--", "/bin/sh", "-c", "ls \"$PHOTOFS_DIR\""])
        #expect(found.status == 0, "\(found.output)")
        #expect(found.output == names[0] + "\n", "\(found.output)")
        let ambiguous = SandboxTests.sandbox(home, [both, "--", "/bin/true"])
        #expect(ambiguous.status == 2, "\(ambiguous.output)")
        #expect(
            ambiguous.output.contains("2 photofs mounts have an app named '\(both)'") && ambiguous.output.contains(first.mountpoint)
                && ambiguous.output.contains(second.mountpoint), "\(ambiguous.output)")
        let missing = SandboxTests.sandbox(home, ["none\(getpid())", "--", "/bin/true"])
        #expect(missing.status == 4, "\(missing.output)")
        #expect(missing.output.contains("no photofs mount has an app named 'none\(getpid())'"), "\(missing.output)")
    }
}
