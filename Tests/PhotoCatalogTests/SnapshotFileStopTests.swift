import CatalogTestSupport
import Foundation
import PhotoCore
import SystemKit
import Testing

@testable import PhotoCatalog

/// A snapshot or view tables file whose writing is asked to stop (the daemon exits) is
/// abandoned: no file at its path, no new file beside it; and a new file a process that no
/// longer runs left behind is removed by the next write. Also the catalog's first write
/// made ahead of the first select.
@Suite("snapshot file: stopping")
struct SnapshotFileStopTests {
    private static func leftovers(in dir: TemporaryDirectory) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: dir.string).filter { $0.contains(".new-") }
    }

    @Test func aWriteStoppedHalfWayLeavesNoFileAndNoNewFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite-snapshot"
        let stop = StopSignal()
        var pieces = 0
        #expect(throws: SnapshotFileError.self) {
            _ = try SnapshotFile.writeReplacing(path, stop: stop) { out in
                // Five megabytes; the stop comes once two are out (the new file then exists).
                for piece in 0..<5 {
                    if piece == 2 {
                        #expect((try? Self.leftovers(in: dir).count) == 1, "the new file is being written")
                        stop.stop()
                    }
                    out.append([UInt8](repeating: UInt8(piece), count: 1 << 20))
                    pieces += 1
                }
            }
        }
        #expect(pieces == 5)
        #expect(!FileSystem.exists(path), "nothing was renamed into place")
        #expect(try Self.leftovers(in: dir).isEmpty, "the new file was removed")
    }

    @Test func aStoppedSaveKeepsTheCatalogReadAndALaterSaveWritesBothFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        try catalog.upsert(SplitSnapshotTests.records(count: 2_000))
        let (snapshot, ticket, _) = try catalog.snapshotForServing()
        let saved = try #require(ticket)
        let stop = StopSignal()
        stop.stop()
        var stopped = false
        do throws(SnapshotFileError) {
            try catalog.saveSnapshotFile(snapshot, ticket: saved, stop: stop)
        } catch {
            if case .stopped = error { stopped = true }
        }
        #expect(stopped)
        #expect(!FileSystem.exists(catalog.snapshotFilePath) && !FileSystem.exists(catalog.viewTablesFilePath))
        #expect(try Self.leftovers(in: dir).isEmpty)
        #expect(try catalog.snapshotForServing().ticket != nil, "the next mount reads the table")
        try catalog.saveSnapshotFile(snapshot, ticket: saved)
        #expect(FileSystem.exists(catalog.snapshotFilePath) && FileSystem.exists(catalog.viewTablesFilePath))
        #expect(try catalog.snapshotForServing().ticket == nil)
    }

    @Test func aNewFileOfAProcessThatIsGoneIsRemovedByTheNextWrite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite-views"
        // Process ids above the kernel's limit (4,194,304 at most) never run.
        let gone = path + ".new-9999999"
        let running = path + ".new-1"  // init: it runs, so its file is left alone
        let other = dir.string + "/c.sqlite-snapshot.new-9999999"
        for leftover in [gone, running, other] { #expect(FileManager.default.createFile(atPath: leftover, contents: Data([1]))) }
        _ = try SnapshotFile.writeReplacing(path) { $0.append([1, 2, 3]) }
        #expect(FileSystem.exists(path))
        #expect(!FileSystem.exists(gone))
        #expect(FileSystem.exists(running) && FileSystem.exists(other), "only this file's leftovers of gone processes")
    }

    @Test func theFirstWriteIsMadeAheadAndRecordsWhenServingBegan() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        #expect(try catalog.servingSince == nil)
        let before = SystemClock.wallNanoseconds()
        try catalog.prepareFirstWrite()
        let since = try #require(try catalog.servingSince)
        #expect(since >= before && since <= SystemClock.wallNanoseconds())
        // It is a write: SQLite's log of this connection now holds it.
        let wal = try FileStatus.ofLink(path: dir.string + "/c.sqlite-wal")
        #expect(wal.size > 0)
    }
}
