import CatalogTestSupport
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// The metadata policy step (`Schema.metadataPolicyStep`): an app's `--metadata` policy
/// and each asset's private plans are stored, survive a reopen, and a catalog from before
/// the step keeps its apps' metadata.
@Suite("Metadata policy storage")
struct MetadataPolicyStorageTests {
    @Test func anAppsMetadataPolicySurvivesAReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let apps = [
            "viewer": App(name: "viewer", locationPolicy: .keep, metadataPolicy: .private),
            "editor": App(name: "editor", locationPolicy: .strip),
        ]
        try Catalog.open(at: path).replaceAccessState(apps: apps, grants: [:])
        #expect(try Catalog.open(at: path).apps() == apps)
        var changed = apps
        changed["viewer"]?.metadataPolicy = .keep
        try Catalog.open(at: path).replaceAccessState(apps: changed, grants: [:])
        #expect(try Catalog.open(at: path).apps()["viewer"]?.metadataPolicy == .keep)
    }

    @Test func indexedAssetsCarryTheirPrivatePlans() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada Lovelace"])
        let stored = try #require(try library.catalog.asset(at: LibraryPath("a.jpg")))
        let original = try #require(FileOps.read(library.path("a.jpg")))
        for policy in LocationPolicy.allCases {
            var served = original
            #expect(stored.redaction.privatePlans.plan(for: policy).apply(to: &served, at: 0), "\(policy)")
            #expect(served.count == original.count)
            #expect(!String(decoding: served, as: UTF8.self).contains("Lovelace"), "the comment reaches a private \(policy) app")
            #expect(String(decoding: original, as: UTF8.self).contains("Lovelace"))
        }
        let reopened = try Catalog.open(at: library.catalogPath)
        #expect(try reopened.asset(at: LibraryPath("a.jpg"))?.redaction.privatePlans == stored.redaction.privatePlans)
    }

    @Test func aCatalogFromVersion4KeepsItsApps() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let db = try Database(path: path)
        for step in Schema.migrations.prefix(4) { try db.execute(step) }
        try db.execute("PRAGMA user_version = 4")
        try db.execute("INSERT INTO apps(name, filter, location, selection_limit, uid) VALUES('old', '', 'coarse', 0, NULL)")
        let catalog = try Catalog.open(at: path)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        #expect(try catalog.apps() == ["old": App(name: "old", locationPolicy: .coarse)])
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'asset_plans'") == 1)
    }
}
