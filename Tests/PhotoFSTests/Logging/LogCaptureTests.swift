import Foundation
import Glibc
import Testing

/// No log line ever holds a coordinate or a file's bytes. Every daemon the tests
/// start logs at debug level and has its log checked by `DaemonProcess` once it exits (the
/// attack, visibility, revocation and redaction suites included, with the library's real
/// coordinates from exiftool); this suite shows that the check catches what it must and
/// runs a redaction and hostile-write workload on a library with GPS photos.
@Suite("logging: no coordinate in any log line", .serialized)
struct LogCaptureTests {
    @Test func scannerCatchesCoordinatesAndBytes() {
        let coordinates = [52.370216, 4.895168, -33.868820]
        let bad = [
            "photofs[7] debug: at 52.37 somewhere",
            "photofs[7] info: lat=52.370216",
            "photofs[7] info: 33.8688 S",
            "photofs[7] info: lon 4.90",
            "photofs[7] warning: GPSLatitude 52 deg",
            "photofs[7] warning: 52°22'",
            "photofs[7] error: bytes \u{1}\u{2}Exif",
        ]
        for line in bad {
            #expect(!LogScan.problems(in: line, coordinates: coordinates).isEmpty, "not caught: \(line.debugDescription)")
        }
        let clean = [
            "photofs[7] info: picker: uid 0 applied a write (3 changes)",
            "photofs[7] info: mount ready on /tmp/x (40 assets)",
            "photofs[7] debug: library changed: 1 new, 0 changed, 0 moved, 0 removed",
            "photofs[7] warning: read: took 0.25 s",
            "photofs[7] info: picker: uid 0 write refused: notFound",
        ]
        for line in clean {
            #expect(LogScan.problems(in: line, coordinates: coordinates).isEmpty, "flagged: \(line)")
        }
    }

    @Test(.enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
    func redactionAndHostileWorkloadsLogNoCoordinate() throws {
        let fixture = try AccessFixture(count: 40, seed: 23)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let located = fixture.assets.filter { !$0.coordinates.isEmpty }
        try #require(located.count >= 5, "the generated library has photos with GPS")
        let ids = fixture.assets.map(\.id).joined(separator: " ")
        #expect(
            PickerFile.write(
                mnt,
                "app add strip\napp add coarse --location coarse\napp add keep --location keep\n"
                    + "select strip \(ids)\nselect coarse \(ids)\nselect keep \(ids)\n"
            ).succeeded)
        // Read everything through each policy, and through the library.
        var served = 0
        for view in ["apps/strip", "apps/coarse", "apps/keep", "library/all"] {
            for name in try ByteFiles.list(Array(fixture.path(view).utf8)) {
                served += try ByteFiles.read(Array(fixture.path(view).utf8) + [UInt8(ascii: "/")] + name).count > 0 ? 1 : 0
            }
        }
        #expect(served >= 3 * fixture.assets.count)
        // Hostile writes, some carrying coordinates of the library as text.
        let coordinate = String(format: "%.6f", located[0].coordinates[0])
        let hostile = [
            "select strip \(coordinate)\n", "app add 'x\ny'\n", "frobnicate \(coordinate)\n", "select nosuchapp \(located[0].id)\n",
            "app set strip --filter 'has:location taken:\(coordinate)'\n", String(repeating: "select strip ", count: 500) + "\n",
        ]
        for text in hostile { #expect(!PickerFile.write(mnt, text).succeeded, "accepted: \(text.prefix(60))") }
        // A change in the library while mounted: the watcher logs it.
        try ByteFiles.write(
            Array((fixture.library + "/added later.jpg").utf8), try ByteFiles.read(Array((fixture.library + "/" + located[1].path).utf8)))
        var seen = false
        for _ in 0..<40 where !seen {
            seen = (try? ByteFiles.list(Array(fixture.path("library/all").utf8)))?.contains(Array("added later.jpg".utf8)) ?? false
            if !seen { usleep(100_000) }
        }
        #expect(seen)
        let daemon = fixture.daemon
        #expect(daemon.unmount() == 0)
        let log = daemon.log
        finished = true
        _ = fixture.finish()
        let lines = log.split(separator: "\n")
        print("daemon log at debug level: \(lines.count) lines; scanned for \(daemon.forbiddenCoordinates.count) coordinates")
        #expect(lines.contains { $0.contains("picker:") && $0.contains("refused") }, "refused writes are logged")
        #expect(lines.contains { $0.contains("library changed") }, "library changes are logged")
        #expect(LogScan.problems(in: log, coordinates: daemon.forbiddenCoordinates) == [])
    }
}
