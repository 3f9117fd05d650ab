import CatalogTestSupport
import Dispatch
import PhotoCatalog
import PhotoCore
import Synchronization
import Testing

@testable import DaemonCore

/// The startup scan's catch-up gives way to the daemon's exit: once asked to stop it
/// indexes nothing, delivers nothing and starts nothing (the watcher), and says so; left
/// alone, the same scan indexes the new photo.
@Suite("startup scan: stopping")
struct StartupScanStopTests {
    /// What a catch-up did.
    private final class Seen: Sendable {
        let delivered = Mutex(0)
        let thenRan = Mutex(false)
        let lines = Mutex<[String]>([])
        let ended = DispatchSemaphore(value: 0)
    }

    private static func catchUp(_ scan: StartupScan, into seen: Seen) {
        scan.catchUp(
            deliver: { _ in seen.delivered.withLock { $0 += 1 } },
            report: { line, _ in seen.lines.withLock { $0.append(line) } },
            then: {
                seen.thenRan.withLock { $0 = true }
                seen.ended.signal()
            })
    }

    /// A catalogued library of one photo, a second one written since, and a scan started
    /// against the catalog as it was.
    private static func startedWithANewPhoto() throws -> (TestLibrary, StartupScan) {
        let library = try TestLibrary(photos: ["a/one.jpg": "1"])
        let before = try library.catalog.snapshot()
        try library.writePhoto("a/two.jpg", comment: "2")
        let scan = StartupScan(indexer: library.indexer, watcher: nil)
        scan.start(comparingWith: before)
        return (library, scan)
    }

    @Test func aCatchUpAskedToStopIndexesAndDeliversNothing() throws {
        let (library, scan) = try Self.startedWithANewPhoto()
        #expect(scan.stop(waitingAtMost: 0), "no catch-up yet: nothing to wait for")
        let seen = Seen()
        Self.catchUp(scan, into: seen)
        #expect(scan.stop(waitingAtMost: 60))
        #expect(seen.delivered.withLock { $0 } == 0)
        #expect(!seen.thenRan.withLock { $0 }, "the watcher is not started on the way out")
        #expect(seen.lines.withLock { $0 }.contains { $0.contains("stopped") })
        #expect(try library.catalog.snapshot().assets.count == 1, "the new photo was not indexed")
    }

    @Test func aCatchUpLeftAloneIndexesTheNewPhoto() throws {
        let (library, scan) = try Self.startedWithANewPhoto()
        let seen = Seen()
        Self.catchUp(scan, into: seen)
        // The run ends by itself (the bound only keeps a broken run from hanging the suite).
        #expect(seen.ended.wait(timeout: .now() + 120) == .success)
        #expect(scan.stop(waitingAtMost: 60), "a stop after the end finds nothing to wait for")
        #expect(seen.delivered.withLock { $0 } == 1)
        #expect(try library.catalog.snapshot().assets.count == 2)
    }
}
