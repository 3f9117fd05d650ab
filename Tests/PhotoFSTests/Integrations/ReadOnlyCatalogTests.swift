import Foundation
import Glibc
import Testing

/// A catalog on a read-only file system: reading commands work, a change says what is
/// wrong and what to do (it used to be "SQLite error 14: unable to open database file"
/// for every command).
@Suite(
    "a catalog on a read-only file system", .serialized,
    .enabled(if: DaemonProcess.binaryExists && getuid() == 0, "mounts a tmpfs read-only, which needs root"))
struct ReadOnlyCatalogTests {
    @Test func readingWorksAndChangesSayWhy() throws {
        let library = try IntegrationLibrary(count: 3, prefix: "photofs-rocat")
        defer { library.remove() }
        try library.grant("editor", [1])
        let readOnly = library.base + "/ro"
        mkdir(readOnly, 0o700)
        try #require(run(["/bin/mount", "-t", "tmpfs", "-o", "mode=0700", "tmpfs", readOnly]).status == 0)
        defer { run(["/bin/umount", readOnly]) }
        let catalog = readOnly + "/catalog.sqlite"
        try #require(run(["/bin/cp", library.catalog, catalog]).status == 0)
        try #require(run(["/bin/mount", "-o", "remount,ro", readOnly]).status == 0)
        func photofs(_ arguments: [String]) -> (status: Int32, output: String) {
            run([DaemonProcess.binary] + arguments + ["--catalog", catalog])
        }
        let count = photofs(["ls", "--count"])
        #expect(count.status == 0 && count.output.trimmingCharacters(in: .whitespacesAndNewlines) == "3", "ls: \(count.output)")
        let shown = photofs(["show", library.assets[1].id])
        #expect(shown.status == 0 && shown.output.contains(library.assets[1].path), "show: \(shown.output)")
        let apps = photofs(["app", "list"])
        #expect(apps.status == 0 && apps.output.contains("editor"), "app list: \(apps.output)")
        let changed = photofs(["app", "add", "other"])
        #expect(changed.status == 1, "app add: \(changed.output)")
        #expect(changed.output.contains("read-only file system") && changed.output.contains("--catalog"), "\(changed.output)")
        #expect(!changed.output.contains("SQLite error"), "\(changed.output)")
        let status = run([DaemonProcess.binary, "status"])
        #expect(status.status == 0, "status: \(status.output)")
    }
}
