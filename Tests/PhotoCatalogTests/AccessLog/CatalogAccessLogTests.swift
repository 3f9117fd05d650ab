import CatalogTestSupport
import Foundation
import PhotoCore
import Testing

@testable import PhotoCatalog

@Suite("Catalog access log")
struct CatalogAccessLogTests {
    static let day: Int64 = 86_400 * 1_000_000_000
    static let a = AssetID("00000000000a")!
    static let b = AssetID("00000000000b")!

    static func entry(_ app: String, _ asset: AssetID, at time: Int64, last: Int64? = nil, reads: Int = 1) -> AccessLogEntry {
        AccessLogEntry(
            app: app, asset: asset, day: UTCDay.day(ofNanoseconds: time), firstReadNanoseconds: time, lastReadNanoseconds: last ?? time,
            reads: reads)
    }

    @Test func sameAppAssetAndDayWidenOneRowOthersAddRows() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let base = 20_000 * Self.day
        try catalog.addAccessLog([Self.entry("editor", Self.a, at: base + 500, reads: 2)])
        try catalog.addAccessLog([
            Self.entry("editor", Self.a, at: base + 100, last: base + 900, reads: 3),
            Self.entry("editor", Self.a, at: base + Self.day + 1),
            Self.entry("viewer", Self.a, at: base + 200),
            Self.entry("editor", Self.b, at: base + 300),
        ])
        let all = try catalog.accessLog()
        #expect(all.count == 4)
        let merged = try #require(all.first { $0.app == "editor" && $0.asset == Self.a && $0.day == 20_000 })
        #expect(merged.firstReadNanoseconds == base + 100)
        #expect(merged.lastReadNanoseconds == base + 900)
        #expect(merged.reads == 5)
        #expect(all.map(\.firstReadNanoseconds) == all.map(\.firstReadNanoseconds).sorted(by: >), "newest first")
        #expect(try catalog.accessLog(app: "viewer").map(\.asset) == [Self.a])
        #expect(try catalog.accessLog(app: "nobody").isEmpty)
        #expect(try catalog.accessLog(since: base + Self.day).map(\.day) == [20_001])
    }

    @Test func pruneDeletesOnlyWhatWasLastReadBeforeTheCutoff() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let base = 20_000 * Self.day
        try catalog.addAccessLog([
            Self.entry("editor", Self.a, at: base),
            Self.entry("editor", Self.b, at: base, last: base + 10 * Self.day),
            Self.entry("viewer", Self.b, at: base + 5 * Self.day),
        ])
        #expect(try catalog.pruneAccessLog(before: base + 5 * Self.day) == 1)
        #expect(Set(try catalog.accessLog().map(\.app)) == ["editor", "viewer"])
        #expect(try catalog.pruneAccessLog(before: base + 5 * Self.day) == 0)
    }

    @Test func aNewCatalogHasTheTableAndAnOldOneGetsIt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        // A catalog of version 4, the last one without the access log: opening it must run
        // every later step, the access log's included.
        do {
            let db = try Database(path: path)
            for step in Schema.migrations.prefix(4) { try db.execute(step) }
            try db.execute("PRAGMA user_version = 4")
            #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name = 'access_log'") == 0)
        }
        let catalog = try Catalog.open(at: path)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        try catalog.addAccessLog([Self.entry("editor", Self.a, at: 1)])
        #expect(try catalog.accessLog().count == 1)
    }
}
