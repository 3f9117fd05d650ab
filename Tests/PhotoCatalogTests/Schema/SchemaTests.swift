import CatalogTestSupport
import Testing

@testable import PhotoCatalog

@Suite("Schema")
struct SchemaTests {
    @Test func freshCatalogHasEveryTableAtTheCurrentVersion() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        let db = try Database(path: dir.string + "/c.sqlite")
        for table in ["assets", "failures", "apps", "grants", "settings"] {
            let s = try db.statement("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?1")
            try s.bind(1, table)
            #expect(try s.step())
            #expect(s.int64(0) == 1, "table \(table)")
            s.reset()
        }
    }

    @Test func migratingTwiceChangesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let db = try Database(path: path)
        #expect(try Schema.migrate(db) == 0)
        try db.execute("INSERT INTO settings(key, value) VALUES('probe', x'01')")
        #expect(try Schema.migrate(db) == Schema.currentVersion)
        #expect(try db.scalarInt("PRAGMA user_version") == Int64(Schema.currentVersion))
        #expect(try db.scalarInt("SELECT count(*) FROM settings") == 1)
        // Reopening through the catalog migrates again: still nothing to do.
        _ = try Catalog.open(at: path)
        _ = try Catalog.open(at: path)
        #expect(try db.scalarInt("SELECT count(*) FROM settings WHERE key = 'probe'") == 1)
    }

    @Test func refusesACatalogFromTheFuture() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        _ = try Catalog.open(at: path)
        let db = try Database(path: path)
        try db.execute("PRAGMA user_version = 99")
        #expect(throws: CatalogError.schemaTooNew(found: 99, supported: Schema.currentVersion)) {
            _ = try Catalog.open(at: path)
        }
    }

    @Test func everyMigrationStepRunsOnce() throws {
        #expect(Schema.migrations.count == Schema.currentVersion)
    }
}
