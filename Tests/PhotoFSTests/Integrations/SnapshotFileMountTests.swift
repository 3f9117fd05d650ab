import Foundation
import Glibc
import Testing

/// A mount reads the catalog's assets from the snapshot file the mount before it saved and
/// builds its views from the tables kept beside it, serves exactly what the catalog holds (a file made stale by an index run in between is
/// not read), and its startup scan still patches in what changed while nothing was mounted.
@Suite(
    "startup: the snapshot file", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct SnapshotFileMountTests {
    /// Every name under the mount's `library/folders`, sorted.
    private static func folders(_ mountpoint: String) -> [String] {
        var names: [String] = []
        var pending = [""]
        while let relative = pending.popLast() {
            let directory = mountpoint + "/library/folders" + relative
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                var isDirectory: ObjCBool = false
                _ = FileManager.default.fileExists(atPath: directory + "/" + name, isDirectory: &isDirectory)
                if isDirectory.boolValue { pending.append(relative + "/" + name) }
                names.append(relative + "/" + name)
            }
        }
        return names.sorted()
    }

    /// The `startup:` debug line of a daemon's log.
    private static func startupLine(_ daemon: DaemonProcess) -> String {
        daemon.log.split(separator: "\n").first { $0.contains("startup: ") }.map(String.init) ?? ""
    }

    @Test func theNextMountReadsTheSavedFileUnlessTheCatalogChanged() throws {
        let (clean, _, _) = try DisguisedOverwriteTests.pair()
        let base = temporaryDirectory("photofs-snapshot-file")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        mkdir(library, 0o755)
        mkdir(library + "/sub", 0o755)
        for name in ["a.jpg", "b.jpg", "sub/c.jpg"] { try ByteFiles.write(Array((library + "/" + name).utf8), clean + Array(name.utf8)) }
        let catalog = base + "/catalog.sqlite"
        let indexed = run([DaemonProcess.binary, "index", "--quiet", "--catalog", catalog, library])
        try #require(indexed.status == 0, "index: \(indexed.output)")
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)

        // The first mount reads the table and keeps it in the file once ready.
        let first = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        let expected = Self.folders(mountpoint)
        #expect(expected == ["/a.jpg", "/b.jpg", "/sub", "/sub/c.jpg"])
        #expect(Self.startupLine(first).contains("catalog read ") && !Self.startupLine(first).contains("snapshot file"))
        #expect(StartupScanTests.within(30) { first.log.contains("saved the snapshot file") }, "daemon log: \(first.log)")
        #expect(first.unmount() == 0, "daemon log: \(first.log)")
        #expect(access(catalog + "-snapshot", R_OK) == 0)

        #expect(access(catalog + "-views", R_OK) == 0)

        // The next one reads the file, builds the views from the kept tables and serves the same views.
        let second = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        #expect(Self.startupLine(second).contains("catalog read (snapshot file)"), "daemon log: \(second.log)")
        #expect(Self.startupLine(second).contains("views (kept tables)"), "daemon log: \(second.log)")
        #expect(Self.folders(mountpoint) == expected)
        #expect(second.unmount() == 0, "daemon log: \(second.log)")

        // An index run by hand while unmounted makes the file stale: the table is read, and
        // the new file is in the views as soon as the mount is ready.
        try ByteFiles.write(Array((library + "/d.jpg").utf8), clean + Array("d".utf8))
        let again = run([DaemonProcess.binary, "index", "--quiet", "--catalog", catalog, library])
        try #require(again.status == 0, "index: \(again.output)")
        let third = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        #expect(!Self.startupLine(third).contains("snapshot file"), "daemon log: \(third.log)")
        #expect(!Self.startupLine(third).contains("kept tables"), "daemon log: \(third.log)")
        #expect(Self.folders(mountpoint).contains("/d.jpg"))
        #expect(StartupScanTests.within(30) { third.log.contains("saved the snapshot file") }, "daemon log: \(third.log)")
        #expect(third.unmount() == 0, "daemon log: \(third.log)")

        // A file added while unmounted and not indexed: the mount serves the saved file at
        // once and its startup scan patches the new one in.
        try ByteFiles.write(Array((library + "/sub/e.jpg").utf8), clean + Array("e".utf8))
        let fourth = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        defer { fourth.unmount() }
        #expect(Self.startupLine(fourth).contains("catalog read (snapshot file)"), "daemon log: \(fourth.log)")
        #expect(StartupScanTests.within(30) { Self.folders(mountpoint).contains("/sub/e.jpg") }, "daemon log: \(fourth.log)")
        #expect(Self.folders(mountpoint) == ["/a.jpg", "/b.jpg", "/d.jpg", "/sub", "/sub/c.jpg", "/sub/e.jpg"])
        #expect(fourth.unmount() == 0, "daemon log: \(fourth.log)")
    }
}
