import Foundation
import PhotoCatalog
import PhotoCore
import Synchronization
import Testing

@testable import DaemonCore

/// The queue between READ and the flusher, and the flusher writing a real catalog.
@Suite("access log queue and flusher")
struct AccessQueueTests {
    static let a = AssetID("00000000000a")!
    static let b = AssetID("00000000000b")!

    @Test func onlyAppScopesAreQueuedAndAFullQueueDropsAndCounts() {
        let queue = AccessQueue(capacity: 4)
        queue.recordRead(in: .owner, of: Self.a)
        queue.recordRead(in: .shared, of: Self.a)
        for _ in 0..<6 { queue.recordRead(in: .app("editor"), of: Self.a) }
        #expect(queue.dropped == 2)
        var batch: [AccessQueue.Event] = []
        batch.reserveCapacity(4)
        queue.drain(into: &batch)
        #expect(batch.count == 4)
        #expect(batch.allSatisfy { $0.app == "editor" && $0.asset == Self.a && $0.nanoseconds > 0 })
        var next: [AccessQueue.Event] = []
        queue.drain(into: &next)
        #expect(next.isEmpty)
        queue.recordRead(in: .app("viewer"), of: Self.b)
        queue.drain(into: &next)
        #expect(next.map(\.app) == ["viewer"])
    }

    @Test func readersOnManyThreadsAreAllCountedQueuedOrDropped() async {
        let queue = AccessQueue(capacity: 1000)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<500 { queue.recordRead(in: .app("editor"), of: Self.a) } } }
        }
        var batch: [AccessQueue.Event] = []
        queue.drain(into: &batch)
        #expect(batch.count == 1000)
        #expect(queue.dropped == 3000)
    }

    @Test func theFlusherMergesPerAppAssetAndDayIntoTheCatalog() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "photofs-flusher-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let catalog = try Catalog.open(at: directory.path + "/c.sqlite")
        let queue = AccessQueue(capacity: 64)
        let lines = LogLines()
        let flusher = AccessLogFlusher(
            queue: queue, store: CatalogStore(catalog: catalog), retentionNanoseconds: 86_400 * 1_000_000_000, log: lines.append)
        flusher.start()
        for _ in 0..<5 { queue.recordRead(in: .app("editor"), of: Self.a) }
        queue.recordRead(in: .app("editor"), of: Self.b)
        queue.recordRead(in: .app("viewer"), of: Self.a)
        flusher.stop()
        flusher.stop()
        let entries = try catalog.accessLog()
        #expect(entries.count == 3)
        let merged = try #require(entries.first { $0.app == "editor" && $0.asset == Self.a })
        #expect(merged.reads == 5)
        #expect(merged.firstReadNanoseconds <= merged.lastReadNanoseconds)
        #expect(lines.all.isEmpty, "\(lines.all)")
    }
}

/// The catalog as a store, as the daemon wires it.
private struct CatalogStore: AccessLogStore {
    let catalog: Catalog
    func add(_ entries: [AccessLogEntry]) throws(AccessLogStoreError) {
        do throws(CatalogError) { try catalog.addAccessLog(entries) } catch { throw AccessLogStoreError(error.description) }
    }
    func prune(before nanoseconds: Int64) throws(AccessLogStoreError) -> Int {
        do throws(CatalogError) { return try catalog.pruneAccessLog(before: nanoseconds) } catch {
            throw AccessLogStoreError(error.description)
        }
    }
}

/// Log lines a flusher wrote.
private final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    var all: [String] { lines.withLock { $0 } }
    var append: @Sendable (String) -> Void { { [self] line in lines.withLock { $0.append(line) } } }
}
