import Foundation
import Glibc
import Testing

/// Every row of the README's exit-code table, through the built binary as a user runs it,
/// and the mount helper's codes for mount(8).
@Suite("exit codes", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct ExitCodeTests {
    static let b = DaemonProcess.binary

    /// `photofs ARGS` with the process environment changed by `variables` (`NAME=value`).
    static func photofs(_ arguments: [String], _ variables: [String] = []) -> (status: Int32, output: String) {
        run(["/usr/bin/env", "-u", "PHOTOFS_LIBRARY"] + variables + [b] + arguments)
    }

    @Test func zeroSuccessAndEveryWayToAskTheVersion() {
        let version = Self.photofs(["version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("photofs "))
        for flag in ["-V", "--version"] { #expect(Self.photofs([flag]) == version) }
    }

    @Test func oneRuntimeFailure() throws {
        let directory = temporaryDirectory("photofs-exit")
        defer { run(["/bin/rm", "-rf", directory]) }
        let notACatalog = directory + "/not-a-catalog.sqlite"
        try String(repeating: "this is not SQLite\n", count: 200).write(toFile: notACatalog, atomically: true, encoding: .utf8)
        let result = Self.photofs(["ls", "--catalog", notACatalog])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.hasPrefix("photofs: cannot open the catalog \(notACatalog)"))
    }

    @Test func twoUsageErrors() throws {
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        let c = library.catalog
        // A negated filter term reads as an option: the message says how to pass it.
        let negated = Self.photofs(["ls", "--catalog", c, "-has:location"])
        #expect(negated.status == 2)
        #expect(negated.output.contains("unknown option '-has:location' for 'ls'"))
        #expect(negated.output.contains("goes after '--': photofs ls -- '-has:location'"), "\(negated.output)")
        let passed = Self.photofs(["ls", "--catalog", c, "--count", "--", "-has:location"])
        #expect(passed.status == 0, "\(passed.output)")
        #expect(Self.photofs(["ls", "--catalog", c, "--bogus"]).output.contains("see 'photofs help ls'"))
        #expect(Self.photofs(["frobnicate"]).status == 2)
        #expect(Self.photofs(["ls", "--catalog", c, "colour:red"]).status == 2)
        #expect(Self.photofs(["show", "--catalog", c]).status == 2)
        // A mountpoint that is not an empty directory, or inside the library.
        try "x".write(toFile: library.mountpoint + "/file", atomically: true, encoding: .utf8)
        let notEmpty = Self.photofs(["mount", "--catalog", c, library.library, library.mountpoint])
        #expect(notEmpty.status == 2)
        #expect(notEmpty.output.contains("is not empty"), "\(notEmpty.output)")
        #expect(!IntegrationLibrary.isMounted(library.mountpoint))
        let inside = library.library + "/mnt"
        mkdir(inside, 0o755)
        #expect(Self.photofs(["mount", "--catalog", c, library.library, inside]).status == 2)
    }

    @Test func threeMissingDependency() throws {
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        // No fusermount3 on the PATH.
        let result = Self.photofs(["mount", "--catalog", library.catalog, library.library, library.mountpoint], ["PATH=/nonexistent"])
        #expect(result.status == 3)
        #expect(result.output.contains("fusermount3 was not found"))
    }

    @Test func fourNotFoundWithOrWithoutLibrary() throws {
        let empty = temporaryDirectory("photofs-exit")
        defer { run(["/bin/rm", "-rf", empty]) }
        let noCatalogs = ["XDG_DATA_HOME=\(empty)"]
        let unnamed = Self.photofs(["ls"], noCatalogs)
        #expect(unnamed.status == 4, "\(unnamed.output)")
        #expect(unnamed.output.contains("no library has been indexed yet"))
        let named = Self.photofs(["ls", "--library", empty], noCatalogs)
        #expect(named.status == 4, "\(named.output)")
        #expect(named.output.contains("has no catalog yet"))
        #expect(Self.photofs(["ls", "--catalog", empty + "/none.sqlite"]).status == 4)
        #expect(Self.photofs(["mount", empty + "/no-library", empty]).status == 4)
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        #expect(Self.photofs(["show", "--catalog", library.catalog, "000000000000"]).status == 4)
        #expect(Self.photofs(["select", "--catalog", library.catalog, "nosuchapp", library.assets[0].id]).status == 4)
    }

    @Test func fiveRefused() throws {
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        try library.photofs(["app", "add", "nothing", "--filter", "type:video"])
        let result = Self.photofs(["select", "--catalog", library.catalog, "nothing", library.assets[0].id])
        #expect(result.status == 5, "\(result.output)")
    }

    @Test func countWithJSONIsJSON() throws {
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        let result = Self.photofs(["ls", "--catalog", library.catalog, "--count", "--json"])
        #expect(result.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Int]
        #expect(object == ["count": library.assets.count])
        #expect(Self.photofs(["ls", "--catalog", library.catalog, "--count"]).output == "\(library.assets.count)\n")
    }

    /// The helper's codes for mount(8): 1 for its own bad invocation (see the helper suite),
    /// 32 when photofs could not mount, with photofs's reason; nothing printed on success.
    @Test(.enabled(if: FuseAvailability.available)) func helperExitsThirtyTwoWhenTheMountFails() throws {
        let library = try IntegrationLibrary(prefix: "photofs-exit")
        defer { library.remove() }
        try "x".write(toFile: library.mountpoint + "/file", atomically: true, encoding: .utf8)
        let helper = IntegrationLibrary.mountScripts + "/mount.fuse.photofs"
        let result = run([
            "/usr/bin/env", "PHOTOFS_BIN=\(Self.b)", "/bin/sh", helper, library.library, library.mountpoint, "-o",
            "catalog=\(library.catalog)",
        ])
        #expect(result.status == 32)
        #expect(result.output.contains("is not empty"), "\(result.output)")
        unlink(library.mountpoint + "/file")
        let mounted = run([
            "/usr/bin/env", "PHOTOFS_BIN=\(Self.b)", "/bin/sh", helper, library.library, library.mountpoint, "-o",
            "catalog=\(library.catalog)",
        ])
        defer { run(["/usr/bin/env", "fusermount3", "-u", library.mountpoint]) }
        #expect(mounted.status == 0)
        #expect(mounted.output == "", "a mount helper prints nothing on success")
        // It returned once the mount answers: the listing is there at once.
        #expect(IntegrationLibrary.names(library.mountpoint + "/library/all").count == library.assets.count)
        #expect(run([Self.b, "unmount", library.mountpoint]).status == 0)
        #expect(MountHelperTests.waitForDaemonExit(library.base))
    }
}
