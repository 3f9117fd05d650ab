import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoMetadata
import Synchronization
import Testing

@testable import PhotoCatalog

/// The mount's way of starting the watcher: inotify opened first, each folder watched as
/// the startup scan enters it, events handled only once `run` is called. A change made
/// after the scan, while nothing runs yet, must still reach the catalog.
@Suite("Library watcher at startup", .serialized)
struct LibraryWatcherStartupTests {
    /// `trip/seed.jpg`, indexed; a watcher opened with every folder watched by a startup
    /// scan, collecting the summaries it hands over, not yet running.
    private final class Started {
        let library: TestLibrary
        let summaries = SummaryLog()
        let watcher: LibraryWatcher
        let scan: LibraryScan

        init() throws {
            let library = try TestLibrary(folders: ["trip"], photos: ["trip/seed.jpg": "seed"])
            let summaries = self.summaries
            let watcher = LibraryWatcher(
                indexer: library.indexer, coalescing: 0.1, onCatalogChange: { summary in summaries.withLock { $0.append(summary) } })
            try watcher.open()
            self.library = library
            self.watcher = watcher
            scan = try library.indexer.scan(entering: { watcher.watch($0) })
        }

        deinit { watcher.stop() }

        /// Runs the watcher and waits (up to 5 s) for its first summary.
        func runUntilFirstSummary() {
            watcher.run()
            let start = Indexer.monotonicSeconds()
            while Indexer.monotonicSeconds() - start < 5, summaries.withLock({ $0.isEmpty }) { usleep(20_000) }
        }
    }

    @Test func aChangeMadeBeforeRunIsIndexedOnceTheWatcherRuns() throws {
        let started = try Started()
        let (catalog, indexer, watcher, summaries, scan) = (
            started.library.catalog, started.library.indexer, started.watcher, started.summaries, started.scan
        )
        #expect(try indexer.needsRun(scan, snapshot: try catalog.snapshot()) == false)
        #expect(watcher.watchedFolderCount == 2)

        // The scan saw nothing of this; only the queued inotify events can tell.
        try started.library.writePhoto("trip/late.jpg", comment: "late")
        usleep(300_000)
        #expect(summaries.withLock { $0.isEmpty }, "events are not handled before run()")
        started.runUntilFirstSummary()
        #expect(summaries.withLock { $0.map(\.new) } == [1])
        #expect(try catalog.asset(at: LibraryPath("trip/late.jpg")) != nil)
    }

    @Test func aFailedReadByTheHandlerIsRetriedWithTheSameSummary() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.makeDirectories(dir.child("lib"))
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let indexer = Indexer(catalog: catalog, library: dir.child("lib"), analyzer: FileAnalyzer())
        let calls = Mutex<[IndexSummary]>([])
        let watcher = LibraryWatcher(
            indexer: indexer, coalescing: 0.1,
            onCatalogChange: { (summary: IndexSummary) throws(CatalogError) in
                let count = calls.withLock { calls in
                    calls.append(summary)
                    return calls.count
                }
                if count == 1 { throw CatalogError.badStoredValue(column: "test", detail: "refused once") }
            })
        try watcher.start()
        defer { watcher.stop() }
        try FileOps.write(TinyJPEG.bytes(comment: "a"), to: dir.child("lib/a.jpg"))
        let start = Indexer.monotonicSeconds()
        while Indexer.monotonicSeconds() - start < 5, calls.withLock({ $0.count < 2 }) { usleep(20_000) }
        let seen = calls.withLock { $0 }
        #expect(seen.count == 2)
        #expect(seen.last?.newIDs == seen.first?.newIDs)
        #expect(seen.last?.new == 1)
    }

    /// `photofs index` run by hand while the library is mounted can index a new file before
    /// the mount's watcher does; the watcher's run then finds nothing new. The views must
    /// still be told, or the file would stay hidden until some other change.
    @Test func aFileAnotherProcessIndexedFirstStillReachesTheHandler() throws {
        let started = try Started()
        let (catalog, summaries) = (started.library.catalog, started.summaries)
        let before = try catalog.snapshot()

        try started.library.writePhoto("trip/late.jpg", comment: "late")
        #expect(try started.library.otherIndexer().run().new == 1)
        started.runUntilFirstSummary()
        let seen = summaries.withLock { $0 }
        #expect(seen.count == 1)
        #expect(seen.first?.changedCatalog == false, "the watcher's own run found the file already indexed")
        let after = try catalog.snapshot(updating: before, changed: seen.first?.changedIDs ?? [])
        #expect(after.assets.contains { $0.path == LibraryPath("trip/late.jpg") })

        // Control: once the views have read the catalog again, a change that alters nothing
        // in it (a file that is not media) calls nobody.
        try FileOps.write(Array("not media".utf8), to: started.library.path("trip/notes.txt"))
        usleep(800_000)
        #expect(summaries.withLock { $0.count } == 1)
    }
}

/// The summaries a watcher handed over, in order.
private final class SummaryLog: Sendable {
    private let list = Mutex<[IndexSummary]>([])

    func withLock<T: Sendable>(_ body: (inout [IndexSummary]) -> T) -> T { list.withLock { body(&$0) } }
}
