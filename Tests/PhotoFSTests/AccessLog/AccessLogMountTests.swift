import Foundation
import Glibc
import TestSupport
import Testing

/// The access log through a real mount: a READ through an app's view is recorded once per
/// app, asset and UTC day; reads through `library/`, listings and stats are not; an app
/// that read nothing has no entry; nothing in the table or `photofs log` is a coordinate.
@Suite("access log through a real mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct AccessLogMountTests {
    @Test func theFirstReadIsRecordedAndAnAppThatReadNothingHasNoEntry() throws {
        let fixture = try AccessFixture(count: 24, seed: 11)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let names = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let unique = fixture.assets.filter { names[$0.fileName] == 1 }
        try #require(unique.count >= 4)
        let (a, b, c, d) = (unique[0], unique[1], unique[2], unique[3])
        let ids = [a, b, c, d].map(\.id).joined(separator: " ")
        #expect(PickerFile.write(fixture.mountpoint, "app add reader\napp add idle\nselect reader \(ids)\nselect idle \(ids)\n").succeeded)

        // Read: a whole, twice (the second from the page cache); b, its first 10 bytes.
        let viewA = Array(fixture.path("apps/reader/" + a.fileName).utf8)
        #expect(try ByteFiles.read(viewA).count == a.size)
        #expect(try ByteFiles.read(viewA).count == a.size)
        let fd = open(fixture.path("apps/reader/" + b.fileName), O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        var head = [UInt8](repeating: 0, count: 10)
        #expect(Glibc.read(fd, &head, 10) == 10)
        close(fd)
        // Not reads of an app: the owner's library view, a stat, a listing, an open without a read.
        #expect(try ByteFiles.read(Array(fixture.path("library/folders/" + c.path).utf8)).count == c.size)
        #expect(statErrno(fixture.path("apps/reader/" + c.fileName)) == 0)
        #expect(try ByteFiles.list(Array(fixture.path("apps/idle").utf8)).count == 4)
        #expect(openErrno(fixture.path("apps/reader/" + d.fileName)) == 0)

        // Written off the READ path within a few seconds, while mounted.
        let expected: Set<AccessLogReading.Entry.Key> = [.init(app: "reader", asset: a.id), .init(app: "reader", asset: b.id)]
        let whileMounted = try AccessLogReading.waitForLog(catalog: fixture.catalog) { Set($0.map(\.key)) == expected }
        #expect(Set(whileMounted.map(\.key)) == expected, "\(whileMounted)")

        // After unmounting (the flusher's last batch): exactly those, today, nothing for idle.
        let outcome = fixture.daemon.unmount()
        #expect(outcome == 0)
        let (text, entries) = try AccessLogReading.log(catalog: fixture.catalog)
        #expect(Set(entries.map(\.key)) == expected, "\(text)")
        #expect(entries.count == 2, "one entry per app, asset and day: \(text)")
        #expect(entries.allSatisfy { $0.day == AccessLogReading.today && $0.reads >= 1 }, "\(text)")
        #expect(try AccessLogReading.log(catalog: fixture.catalog, ["idle"]).entries.isEmpty)
        #expect(try AccessLogReading.log(catalog: fixture.catalog, ["--since", "1h"]).entries.count == 2)

        // No coordinate: not in what `photofs log` prints, not in any value of the table,
        // not as a stored double in the table's pages.
        let coordinates = fixture.assets.flatMap(\.coordinates)
        if ExternalTools.exiftool != nil { #expect(!coordinates.isEmpty, "the fixture has located photos") }
        #expect(LogScan.problems(in: text.replacingOccurrences(of: "},{", with: "},\n{"), coordinates: coordinates).isEmpty)
        if let dump = AccessLogReading.tableDump(catalog: fixture.catalog) {
            #expect(dump.split(separator: "\n").count == 2, "\(dump)")
            #expect(!dump.contains("float:"), "no REAL value in the table: \(dump)")
            #expect(LogScan.problems(in: dump, coordinates: coordinates).isEmpty, "\(dump)")
            let bytes = try #require(AccessLogReading.tableBytes(catalog: fixture.catalog, scratch: fixture.base + "/table.sqlite"))
            for coordinate in coordinates { #expect(!AccessLogReading.containsDouble(bytes, coordinate), "\(coordinate)") }
        } else {
            _ = Skip.unless(false, "access log table scan: /usr/bin/python3 with sqlite3 is missing")
        }
        finished = true
        #expect(fixture.finish().status == 0)
    }

    @Test func noAccessLogRecordsNothing() throws {
        let fixture = try AccessFixture(count: 6, seed: 3, extra: ["--no-access-log"])
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let a = try #require(fixture.assets.first)
        #expect(PickerFile.write(fixture.mountpoint, "app add reader\nselect reader \(a.id)\n").succeeded)
        let names = try ByteFiles.list(Array(fixture.path("apps/reader").utf8))
        let name = try #require(names.first)
        #expect(try ByteFiles.read(Array(fixture.path("apps/reader/").utf8) + name).count == a.size)
        #expect(fixture.daemon.unmount() == 0)
        #expect(try AccessLogReading.log(catalog: fixture.catalog).entries.isEmpty)
        #expect(fixture.daemon.log.contains("access log off"), "\(fixture.daemon.log)")
        finished = true
        _ = fixture.finish()
    }

    @Test func entriesOlderThanTheRetentionArePrunedAtStart() throws {
        let fixture = try AccessFixture(count: 6, seed: 3, extra: ["--log-retention", "10d"])
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let (a, b) = (fixture.assets[0], fixture.assets[1])
        #expect(fixture.daemon.unmount() == 0)
        try AccessLogReading.addHistory(catalog: fixture.catalog, [("gone", a.id, 11), ("kept", b.id, 9)])
        #expect(try AccessLogReading.log(catalog: fixture.catalog).entries.count == 2)
        try fixture.remount()
        let entries = try AccessLogReading.log(catalog: fixture.catalog).entries
        #expect(entries.map(\.app) == ["kept"], "\(entries)")
        finished = true
        #expect(fixture.finish().status == 0)
    }

    @Test func aWrittenBatchSurvivesAKillOfTheDaemon() throws {
        let fixture = try AccessFixture(count: 6, seed: 3)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let a = try #require(fixture.assets.first)
        #expect(PickerFile.write(fixture.mountpoint, "app add reader\nselect reader \(a.id)\n").succeeded)
        let name = try #require(try ByteFiles.list(Array(fixture.path("apps/reader").utf8)).first)
        #expect(try ByteFiles.read(Array(fixture.path("apps/reader/").utf8) + name).count == a.size)
        let written = try AccessLogReading.waitForLog(catalog: fixture.catalog) { !$0.isEmpty }
        #expect(written.map(\.asset) == [a.id])
        fixture.daemon.crash()
        _ = run(["/usr/bin/env", "fusermount3", "-u", "-z", fixture.mountpoint])
        #expect(try AccessLogReading.log(catalog: fixture.catalog).entries.map(\.asset) == [a.id])
        try fixture.remount()
        #expect(try AccessLogReading.log(catalog: fixture.catalog, ["reader"]).entries.map(\.asset) == [a.id])
        finished = true
        #expect(fixture.finish().status == 0)
    }

    @Test func badRetentionIsAUsageErrorWithItsColumn() throws {
        let result = run([DaemonProcess.binary, "mount", "--log-retention", "30x", "/nonexistent-library", "/nonexistent-mountpoint"])
        #expect(result.status == 2, "\(result.output)")
        #expect(result.output.contains("--log-retention '30x' at column 3"), "\(result.output)")
        for (since, column) in [("2026-02-30", 6), ("2026-1-01", 6), ("2026-12-01T25:00", 12), ("2026-12-01 08:00", 11), ("7y", 2)] {
            let log = run([DaemonProcess.binary, "log", "--since", since, "--catalog", "/nonexistent/catalog.sqlite"])
            #expect(log.status == 2, "\(since): \(log.output)")
            #expect(log.output.contains("'\(since)' at column \(column)"), "\(since): \(log.output)")
        }
    }
}

extension AccessLogReading.Entry {
    /// Who read what, without the day and count.
    struct Key: Hashable, CustomStringConvertible {
        let app: String
        let asset: String
        var description: String { "\(app):\(asset)" }
    }

    var key: Key { Key(app: app, asset: asset) }
}
