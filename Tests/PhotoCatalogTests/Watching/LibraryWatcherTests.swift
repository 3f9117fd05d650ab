import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoHashing
import PhotoMetadata
import Synchronization
import Testing

@testable import PhotoCatalog

/// Real inotify on a real temporary library: each change must reach the catalog (and the
/// change handler) within 2 seconds, as the README promises of the live library.
@Suite("Library watcher", .serialized)
struct LibraryWatcherTests {
    /// What the change handler was given.
    final class Recorder: Sendable {
        let changes = Mutex<[IndexSummary]>([])
        let latest = Mutex<LibrarySnapshot?>(nil)
    }

    final class Harness {
        let dir: TemporaryDirectory
        let catalog: Catalog
        let indexer: Indexer
        let recorder = Recorder()
        var watcher: LibraryWatcher!

        init() throws {
            dir = try TemporaryDirectory()
            try FileOps.makeDirectories(dir.child("lib/old"))
            try FileOps.write(TinyJPEG.bytes(comment: "seed"), to: dir.child("lib/old/seed.jpg"))
            catalog = try Catalog.open(at: dir.string + "/c.sqlite")
            indexer = Indexer(catalog: catalog, library: dir.child("lib"), analyzer: FileAnalyzer())
            _ = try indexer.run()
            watcher = LibraryWatcher(
                indexer: indexer, coalescing: 0.1,
                onCatalogChange: { [recorder, catalog] summary throws(CatalogError) in
                    let snapshot = try catalog.snapshot()
                    recorder.changes.withLock { $0.append(summary) }
                    recorder.latest.withLock { $0 = snapshot }
                })
            try watcher.start()
        }

        deinit {
            watcher.stop()
            dir.remove()
        }

        /// Waits until the catalog's paths equal `expected`; returns the seconds it took.
        func waitForPaths(_ expected: [String], timeout: Double = 2) throws -> Double {
            let start = Indexer.monotonicSeconds()
            while Indexer.monotonicSeconds() - start < timeout {
                let paths = recorder.latest.withLock { $0?.assets.map(\.path.display).sorted() }
                if paths == expected { return Indexer.monotonicSeconds() - start }
                usleep(20_000)
            }
            let now = try catalog.snapshot().assets.map(\.path.display).sorted()
            throw TestFailure(
                "after \(timeout) s the views show \(String(describing: recorder.latest.withLock { $0?.assets.map(\.path.display).sorted() })), catalog \(now), expected \(expected)"
            )
        }

        func lib(_ path: String) -> [UInt8] { dir.child("lib/" + path) }
    }

    @Test func followsFilesAndFolders() throws {
        let h = try Harness()
        let seed = try #require(try h.catalog.asset(at: LibraryPath("old/seed.jpg"))?.asset.id)

        try FileOps.write(TinyJPEG.bytes(comment: "a"), to: h.lib("a.jpg"))
        _ = try h.waitForPaths(["a.jpg", "old/seed.jpg"])

        try FileOps.rename(h.lib("a.jpg"), h.lib("b.jpg"))
        _ = try h.waitForPaths(["b.jpg", "old/seed.jpg"])

        // A new folder with a file written right after it was created.
        try FileOps.write(TinyJPEG.bytes(comment: "c"), to: h.lib("new/deeper/c.jpg"))
        _ = try h.waitForPaths(["b.jpg", "new/deeper/c.jpg", "old/seed.jpg"])

        // A folder renamed: its file keeps its id, and the watches follow.
        try FileOps.rename(h.lib("old"), h.lib("renamed"))
        _ = try h.waitForPaths(["b.jpg", "new/deeper/c.jpg", "renamed/seed.jpg"])
        #expect(try h.catalog.asset(at: LibraryPath("renamed/seed.jpg"))?.asset.id == seed)
        try FileOps.write(TinyJPEG.bytes(comment: "d"), to: h.lib("renamed/d.jpg"))
        _ = try h.waitForPaths(["b.jpg", "new/deeper/c.jpg", "renamed/d.jpg", "renamed/seed.jpg"])

        // A folder moved out of the library is gone, and no longer watched.
        try FileOps.rename(h.lib("new"), h.dir.child("outside"))
        _ = try h.waitForPaths(["b.jpg", "renamed/d.jpg", "renamed/seed.jpg"])
        try FileOps.write(TinyJPEG.bytes(comment: "e"), to: h.dir.child("outside/e.jpg"))

        // A modified file is read again: new content, new id, old id invalidated.
        let before = try #require(try h.catalog.asset(at: LibraryPath("b.jpg"))?.asset.id)
        try FileOps.write(TinyJPEG.bytes(comment: "b changed"), to: h.lib("b.jpg"))
        let deadline = Indexer.monotonicSeconds() + 2
        while Indexer.monotonicSeconds() < deadline, try h.catalog.asset(at: LibraryPath("b.jpg"))?.asset.id == before { usleep(20_000) }
        #expect(
            try h.catalog.asset(at: LibraryPath("b.jpg"))?.asset.id == AssetFingerprint(of: TinyJPEG.bytes(comment: "b changed")).assetID)
        // The catalog changes before the change is delivered: wait for the delivery too.
        let told = Indexer.monotonicSeconds() + 2
        while Indexer.monotonicSeconds() < told, !h.recorder.changes.withLock({ $0.contains { $0.invalidatedIDs.contains(before) } }) {
            usleep(20_000)
        }
        #expect(h.recorder.changes.withLock { $0.contains { $0.invalidatedIDs.contains(before) } })

        try FileOps.unlink(h.lib("renamed/d.jpg"))
        let seconds = try h.waitForPaths(["b.jpg", "renamed/seed.jpg"])
        print("watcher: last change seen after \(Int(seconds * 1000)) ms")
        #expect(try h.catalog.snapshot().assets.map(\.path.display).sorted() == ["b.jpg", "renamed/seed.jpg"])
    }

    @Test func stopsCleanly() throws {
        let h = try Harness()
        #expect(h.watcher.watchedFolderCount == 2)
        h.watcher.stop()
        h.watcher.stop()
        #expect(h.watcher.watchedFolderCount == 0)
        try FileOps.write(TinyJPEG.bytes(comment: "late"), to: h.lib("late.jpg"))
        usleep(300_000)
        #expect(h.recorder.changes.withLock { $0.isEmpty })
    }
}

/// The event parser on hand-made inotify records: what a burst turns into.
@Suite("Library watcher events")
struct LibraryWatcherEventTests {
    /// One `struct inotify_event` record: wd, mask, cookie, len, then the name padded with NULs.
    func record(wd: Int32, mask: Int32, name: String = "") -> [UInt8] {
        func le32(_ v: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: v >> $0) } }
        var nameBytes = Array(name.utf8)
        if !nameBytes.isEmpty { nameBytes += [UInt8](repeating: 0, count: 16 - nameBytes.count % 16) }
        return le32(UInt32(bitPattern: wd)) + le32(UInt32(bitPattern: mask)) + le32(0) + le32(UInt32(nameBytes.count)) + nameBytes
    }

    func parse(_ records: [[UInt8]]) -> LibraryWatcher.State {
        var state = LibraryWatcher.State()
        state.folders = [1: LibraryPath(""), 2: LibraryPath("trip")]
        let bytes = records.flatMap { $0 }
        LibraryWatcher.parse(bytes[...], library: Array("/nonexistent-library".utf8), state: &state)
        return state
    }

    @Test func fileEventsScopeTheirFolder() {
        let state = parse([
            record(wd: 2, mask: IN_CLOSE_WRITE, name: "a.jpg"),
            record(wd: 1, mask: IN_MOVED_TO, name: "b.jpg"),
            record(wd: 1, mask: IN_CREATE, name: "still-writing.jpg"),
            record(wd: 2, mask: IN_DELETE, name: ".hidden.jpg"),
            record(wd: 9, mask: IN_DELETE, name: "unknown-watch.jpg"),
        ])
        #expect(
            state.pending == [
                FolderScope(path: LibraryPath("trip"), recursive: false), FolderScope(path: LibraryPath(""), recursive: false),
            ])
        #expect(!state.fullRescan)
    }

    @Test func folderEventsScopeTheFolderRecursively() {
        let state = parse([
            record(wd: 1, mask: IN_MOVED_FROM | IN_ISDIR, name: "trip"),
            record(wd: 1, mask: IN_CREATE | IN_ISDIR, name: "new"),
        ])
        #expect(
            state.pending == [
                FolderScope(path: LibraryPath("trip"), recursive: true), FolderScope(path: LibraryPath("new"), recursive: true),
            ])
        // The moved-away folder's watch is dropped: it would follow the folder out of the library.
        #expect(state.folders == [1: LibraryPath("")])
    }

    @Test func anOverflowAsksForAFullRescan() {
        let state = parse([record(wd: -1, mask: IN_Q_OVERFLOW)])
        #expect(state.fullRescan)
    }

    @Test func aRemovedWatchIsForgotten() {
        let state = parse([record(wd: 2, mask: IN_IGNORED)])
        #expect(state.folders == [1: LibraryPath("")])
        #expect(state.pending.isEmpty)
    }

    @Test func aTruncatedRecordIsIgnored() {
        var bytes = record(wd: 1, mask: IN_CLOSE_WRITE, name: "a.jpg")
        bytes.removeLast(20)
        var state = LibraryWatcher.State()
        state.folders = [1: LibraryPath("")]
        LibraryWatcher.parse(bytes[...], library: [], state: &state)
        // The name is cut short but the record is still within bounds: no crash, no overread.
        #expect(state.pending.count <= 1)
    }
}
