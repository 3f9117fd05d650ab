import Foundation
import Glibc
import PhotoCatalog
import PhotoCore
import Testing

/// A mount of a catalogued library is ready before its startup scan has compared the
/// library with the catalog: a file replaced while nothing was mounted must not be served
/// with the old file's plan in that window, and must show as it is once the scan caught up.
@Suite(
    "startup: serving the catalog before the startup scan", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct StartupScanTests {
    /// Polls `condition` every 20 ms for up to `seconds`.
    static func within(_ seconds: Double, _ condition: () -> Bool) -> Bool {
        for _ in 0..<Int(seconds * 50) {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    @Test func aFileReplacedWhileUnmountedIsNeverServedStaleAndShowsOnceScanned() throws {
        let (clean, gps, patches) = try DisguisedOverwriteTests.pair()
        let base = temporaryDirectory("photofs-startup-scan")
        defer { run(["/bin/rm", "-rf", base]) }
        let (library, file, mountpoint, catalog) = try DisguisedOverwriteTests.stage(clean, in: base)
        var times = [DisguisedOverwriteTests.oldTime, DisguisedOverwriteTests.oldTime]
        // The second mount has a mountpoint (and so a log file) of its own.
        let remount = base + "/remount"
        mkdir(remount, 0o755)

        // The first mount indexes before it is ready; the app gets the clean photo.
        let first = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        var mounted = true
        defer { if mounted { first.unmount() } }
        let record = try #require(try Catalog.open(at: catalog).asset(at: LibraryPath("photo.jpg")))
        let setup = PickerFile.write(mountpoint, "app add viewer --location strip\nselect viewer \(record.asset.id.rawValue)\n")
        try #require(setup.succeeded, "picker: \(setup)")
        #expect(try ByteFiles.read(Array((mountpoint + "/apps/viewer/photo.jpg").utf8)) == clean)
        #expect(first.unmount() == 0, "daemon log: \(first.log)")
        mounted = false

        // While unmounted: the photo is overwritten in place by one with GPS (same size,
        // mtime set back), and a new photo arrives.
        let fd = open(file, O_WRONLY | O_CLOEXEC)
        try #require(fd >= 0)
        #expect(gps.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == gps.count)
        close(fd)
        #expect(utimensat(AT_FDCWD, file, &times, 0) == 0)
        try ByteFiles.write(Array((library + "/new.jpg").utf8), clean)

        let daemon = try DaemonProcess(library: library, mountpoint: remount, catalog: catalog)
        defer { daemon.unmount() }
        let view = remount + "/apps/viewer/photo.jpg"
        let owner = remount + "/library/folders/photo.jpg"
        daemon.forbiddenCoordinates = [DisguisedOverwriteTests.location.latitude, DisguisedOverwriteTests.location.longitude]
        /// Whatever the app's view answers (an error, other bytes), never the GPS; the
        /// owner's view serves the file as it is now or refuses it, never the old bytes. One
        /// exception while the scan installs its change: a read that named `photo.jpg`
        /// before and read after it gets the old content, which the scan found moved to
        /// `new.jpg` (as a read follows a file renamed under it on any file system).
        func check(_ moment: String, scanMayRun: Bool) {
            if let served = try? ByteFiles.read(Array(view.utf8)) {
                #expect(!DisguisedOverwriteTests.showsLocation(served, gps: gps, patches: patches), "\(moment): the strip view served GPS")
            }
            if let served = try? ByteFiles.read(Array(owner.utf8)) {
                let moving = scanMayRun && daemon.log.contains("library changed")
                #expect(served == gps || (moving && served == clean), "\(moment): the library view served bytes the file no longer holds")
            }
        }
        check("right after ready", scanMayRun: true)
        let caughtUp = Self.within(30) {
            (try? ByteFiles.read(Array(owner.utf8))) == gps
                && (try? ByteFiles.read(Array((remount + "/library/folders/new.jpg").utf8))) == clean
        }
        #expect(caughtUp, "the startup scan did not show the changes; daemon log: \(daemon.log)")
        // The scan's summary is logged once all its invalidations are sent (the library
        // view's come first, so the views may show the change a moment before).
        #expect(Self.within(10) { daemon.log.contains("startup scan: 2 files; indexed") }, "daemon log: \(daemon.log)")
        check("after the startup scan", scanMayRun: false)
        // The rewritten file is other content (another id): the app's grant no longer names it.
        #expect(throws: ByteFiles.Failure(errno: ENOENT)) { try ByteFiles.stat(Array(view.utf8)) }
        #expect(daemon.unmount() == 0, "daemon log: \(daemon.log)")
    }
}
