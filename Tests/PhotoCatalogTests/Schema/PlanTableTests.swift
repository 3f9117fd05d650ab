import CatalogTestSupport
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// The plans in their own table: a catalog from before the table keeps every asset (with
/// its plans and what they withhold), grant, rule and app, and every write of an asset
/// keeps its plan rows at its path and version.
@Suite("plan table: migration and writes")
struct PlanTableTests {
    /// The plan columns as the version before the table wrote them.
    static let versionNineInsert = """
        INSERT INTO assets(id, fingerprint, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, date_source, make,
            model, lens, orientation, width, height, latitude, longitude, altitude, has_exif, software, says_screenshot, problems,
            redaction_strip, redaction_coarse, indexed_at_ns, ctime_ns, location_sources, private_plans)
        SELECT id, fingerprint, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, date_source, make,
            model, lens, orientation, width, height, latitude, longitude, altitude, has_exif, software, says_screenshot, problems,
            ?2, ?3, indexed_at_ns, ctime_ns, location_sources, ?4
        FROM current.assets WHERE id = ?1
        """

    @Test func aCatalogFromBeforeTheTableKeepsEverything() throws {
        let library = try TestLibrary(
            folders: ["a", "b"], photos: ["a/1.jpg": "Ada Lovelace", "a/2.jpg": "Grace Hopper", "b/1.jpg": "Alan Turing", "c.jpg": "Kurt"])
        var records = try library.catalog.snapshot().assets.map { try #require(try library.catalog.asset(id: $0.id)) }
        records.sort { $0.asset.path < $1.asset.path }
        #expect(records.count == 4)
        // Plans the version before stored too: a withheld strip plan, private plans that do not
        // read, private plans not made yet.
        records[1].redaction.strip = .withheld(reason: "unknown container")
        let unreadable = records[2].asset.id
        let notPlanned = records[3].asset.id
        records[3].redaction.privatePlans = .notPlanned

        let path = library.dir.string + "/nine.sqlite"
        let db = try Database(path: path)
        for step in Schema.migrations.prefix(9) { try db.execute(step) }
        try db.execute("PRAGMA user_version = 9")
        try db.execute("ATTACH DATABASE '\(library.catalogPath)' AS current")
        let insert = try db.statement(Self.versionNineInsert)
        for record in records {
            insert.reset()
            try insert.bind(1, record.asset.id.rawValue)
            try insert.bind(2, record.redaction.strip.encoded())
            try insert.bind(3, record.redaction.coarse.encoded())
            if record.asset.id == unreadable {
                try insert.bind(4, [9, 0, 0])
            } else if record.asset.id == notPlanned {
                try insert.bindNull(4)
            } else {
                try insert.bind(4, record.redaction.privatePlans.encoded)
            }
            try insert.run()
        }
        insert.reset()
        try db.execute("DETACH DATABASE current")
        #expect(try db.scalarInt("SELECT count(*) FROM assets") == 4)
        try db.execute(
            """
            INSERT INTO apps(name, filter, location, selection_limit, uid, metadata) VALUES('viewer', 'make:Canon', 'strip', 0, NULL, 'private');
            INSERT INTO apps(name, filter, location, selection_limit, uid) VALUES('web', '', 'coarse', 3, 1000);
            INSERT INTO grants(app, asset_id, position, granted_at_ns) VALUES('viewer', '\(records[0].asset.id.rawValue)', 0, 5);
            INSERT INTO grants(app, asset_id, position, granted_at_ns, expires_at_ns) VALUES('web', '\(unreadable.rawValue)', 1, 6, 99);
            INSERT INTO grant_rules(app, position, filter, granted_at_ns) VALUES('web', 0, 'has:location', 7);
            INSERT INTO grant_exclusions(app, asset_id) VALUES('web', '\(notPlanned.rawValue)');
            """)
        let accessTables = ["apps", "grants", "grant_rules", "grant_exclusions", "settings"]
        let accessBefore = try accessTables.map { try Self.dump($0, db) }

        let migrated = try Catalog.open(at: path)
        #expect(try migrated.schemaVersion == Schema.currentVersion)
        #expect(try accessTables.map { try Self.dump($0, db) } == accessBefore)
        #expect(try migrated.apps().keys.sorted() == ["viewer", "web"])
        #expect(try migrated.grants(for: "web").map(\.asset) == [unreadable])
        // Every asset with its plans; the snapshot keeps what they withhold.
        let snapshot = try migrated.snapshot().assets
        #expect(snapshot.count == records.count)
        // The later trailer-walk step forgets every inode, so that the next index reads each file again.
        for index in records.indices { records[index].asset.inode = 0 }
        for record in records where record.asset.id != unreadable {
            #expect(try migrated.asset(id: record.asset.id) == record, "\(record.asset.path)")
            #expect(snapshot.first { $0.id == record.asset.id } == record.asset, "\(record.asset.path)")
        }
        let withheldStrip = try #require(snapshot.first { $0.id == records[1].asset.id })
        #expect(withheldStrip.withheld.contains(.strip) && !withheldStrip.withheld.contains(.coarse))
        for id in [unreadable, notPlanned] {
            let asset = try #require(snapshot.first { $0.id == id })
            for policy in LocationPolicy.allCases { #expect(asset.withheld.isWithheld(for: policy, metadata: .private), "\(policy)") }
        }
        // The read path gets the plans of the table, and refuses the unreadable ones.
        let plans = StoredPlans(path: path)
        #expect(
            try plans.plan(of: records[0].asset, location: .coarse, metadata: .private) == .privatePlans(records[0].redaction.privatePlans))
        #expect(try plans.plan(of: records[1].asset, location: .strip, metadata: .keep) == .location(records[1].redaction.strip))
        let unreadableAsset = try #require(snapshot.first { $0.id == unreadable })
        #expect(throws: ViewLayerError.self) { try plans.plan(of: unreadableAsset, location: .strip, metadata: .private) }
        // The plan columns and their indexes are gone.
        #expect(
            try db.scalarInt("SELECT count(*) FROM pragma_table_info('assets') WHERE name LIKE '%plan%' OR name LIKE 'redaction%'") == 0)
        #expect(try db.scalarInt("SELECT count(*) FROM sqlite_master WHERE name LIKE 'assets_plan_%'") == 0)
        try Self.expectPlanRowsInStep(db)
        // The old table's pages were given back.
        #expect(try db.scalarInt("PRAGMA freelist_count") == 0)
    }

    /// A row written by the first schema comes through every step: its plans in the table,
    /// served as they were, and no private plans yet (withheld from private views).
    @Test func aRowOfTheFirstSchemaReachesThePlanTable() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/one.sqlite"
        let db = try Database(path: path)
        try db.execute(Schema.migrations[0])
        try db.execute("PRAGMA user_version = 1")
        let insert = try db.statement(
            """
            INSERT INTO assets(id, fingerprint, path, size, mtime_ns, inode, format, date_source, has_exif, says_screenshot,
            problems, redaction_strip, redaction_coarse, indexed_at_ns)
            VALUES('0123456789ab', 'f', ?1, 10, 20, 30, 'jpeg', 'fileModification', 0, 0, '', ?2, ?3, 1)
            """)
        try insert.bind(1, Array("a/b.jpg".utf8))
        try insert.bind(2, RedactionPlan.identity.encoded())
        try insert.bind(3, RedactionPlan.withheld(reason: "not parsed").encoded())
        try insert.run()
        try db.execute("INSERT INTO apps(name, filter, location, selection_limit, uid) VALUES('viewer', '', 'strip', 0, NULL)")
        try db.execute("INSERT INTO grants(app, asset_id, position, granted_at_ns) VALUES('viewer', '0123456789ab', 0, 5)")

        let catalog = try Catalog.open(at: path)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        #expect(try catalog.grants(for: "viewer").map(\.asset.rawValue) == ["0123456789ab"])
        let record = try #require(try catalog.asset(at: LibraryPath("a/b.jpg")))
        #expect(record.redaction == RedactionPlans(strip: .identity, coarse: .withheld(reason: "not parsed")))
        #expect(record.asset.withheld == [.coarse, .privateKeep, .privateStrip, .privateCoarse])
        #expect(try catalog.snapshot().assets.map(\.withheld) == [record.asset.withheld])
        try Self.expectPlanRowsInStep(db, assets: 1)
    }

    /// Index, re-index, move, delete, replace at a path, verify's forgotten ctime: after each,
    /// every asset has one plan row per kind, at its path, of its version, and no other rows.
    @Test func everyWriteKeepsThePlanRowsInStep() throws {
        let library = try TestLibrary(folders: ["a", "b"], photos: ["a/1.jpg": "Ada", "a/2.jpg": "Grace", "b/1.jpg": "Alan"])
        let db = try Database(path: library.catalogPath)
        try Self.expectPlanRowsInStep(db, assets: 3)
        let moving = try #require(try library.catalog.asset(at: LibraryPath("a/1.jpg")))
        try FileOps.rename(library.path("a/1.jpg"), library.path("b/0.jpg"))
        _ = try library.indexer.run()
        #expect(try library.catalog.asset(at: LibraryPath("b/0.jpg"))?.asset.id == moving.asset.id)
        try Self.expectPlanRowsInStep(db, assets: 3)
        let plans = StoredPlans(path: library.catalogPath)
        let moved = try #require(try library.catalog.asset(id: moving.asset.id))
        #expect(try plans.plan(of: moved.asset, location: .strip, metadata: .private) == .privatePlans(moving.redaction.privatePlans))
        #expect(throws: ViewLayerError.stale) { try plans.plan(of: moving.asset, location: .strip, metadata: .private) }

        try library.writePhoto("a/2.jpg", comment: "Grace Hopper, changed")
        try FileOps.unlink(library.path("b/1.jpg"))
        _ = try library.indexer.run()
        try Self.expectPlanRowsInStep(db, assets: 2)

        // Another asset written at a taken path replaces the one there, plan rows included.
        var other = moved
        other.asset.id = try #require(AssetID("0123456789ab"))
        other.asset.path = LibraryPath("a/2.jpg")
        try library.catalog.upsert([other])
        try Self.expectPlanRowsInStep(db, assets: 2)
        #expect(try library.catalog.asset(at: LibraryPath("a/2.jpg")) == other)

        try library.catalog.withIndexTransaction { (writer: IndexWriter) throws(CatalogError) in
            try writer.setContentHash(moved.asset.id, String(repeating: "0", count: 64), forgetStat: true)
        }
        try Self.expectPlanRowsInStep(db, assets: 2)
        try library.catalog.deleteAssets([other.asset.id])
        try Self.expectPlanRowsInStep(db, assets: 1)
    }

    /// An asset's plan rows are found through its path by primary key, never by a scan.
    @Test func theRowsOfAnAssetAreFoundByKey() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada"])
        let db = try Database(path: library.catalogPath)
        let explain = try db.statement(
            "EXPLAIN QUERY PLAN DELETE FROM asset_plans WHERE kind IN (0, 1, 2) AND path = (SELECT path FROM assets WHERE id = ?1)")
        var details: [String] = []
        while try explain.step() { details.append(explain.text(3)) }
        explain.reset()
        #expect(details.contains { $0.hasPrefix("SEARCH asset_plans USING PRIMARY KEY (kind=? AND path=?)") }, "\(details)")
        #expect(!details.contains { $0.hasPrefix("SCAN") }, "\(details)")
    }

    /// Every asset has one row per plan kind at its path, holding its id and version, and
    /// there are no others.
    static func expectPlanRowsInStep(_ db: Database, assets expected: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let assets = try #require(try db.scalarInt("SELECT count(*) FROM assets"))
        if let expected { #expect(assets == Int64(expected), sourceLocation: sourceLocation) }
        #expect(try db.scalarInt("SELECT count(*) FROM asset_plans") == 3 * assets, sourceLocation: sourceLocation)
        let matching = try db.scalarInt(
            """
            SELECT count(*) FROM asset_plans p JOIN assets a ON a.path = p.path AND a.id = p.id AND a.size = p.size
                AND a.mtime_ns = p.mtime_ns AND a.inode = p.inode AND a.ctime_ns = p.ctime_ns
            WHERE p.kind IN (0, 1, 2)
            """)
        #expect(matching == 3 * assets, sourceLocation: sourceLocation)
    }

    /// A table's rows as text (every column quoted), sorted.
    static func dump(_ table: String, _ db: Database) throws -> [String] {
        let columns = try #require(
            try db.scalarText("SELECT group_concat('quote(' || name || ')', ' || ''|'' || ') FROM pragma_table_info('\(table)')"))
        let s = try db.statement("SELECT \(columns) FROM \(table)")
        defer { s.reset() }
        var rows: [String] = []
        while try s.step() { rows.append(s.text(0)) }
        return rows.sorted()
    }
}
