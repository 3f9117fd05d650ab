import CatalogTestSupport
import Testing

@testable import PhotoCatalog

@Suite("Database")
struct DatabaseTests {
    @Test func bindsAndReadsEveryType() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Database(path: dir.string + "/t.sqlite")
        try db.execute("CREATE TABLE t(i INTEGER, d REAL, s TEXT, b BLOB, n)")
        let insert = try db.statement("INSERT INTO t VALUES(?1, ?2, ?3, ?4, ?5)")
        let text = "a\u{0}b — 📷\nc"
        let blob: [UInt8] = [0, 0xFF, 0x0A, 0x80, 0]
        try insert.bind(1, Int64.min)
        try insert.bind(2, -1.5e300)
        try insert.bind(3, text)
        try insert.bind(4, blob)
        try insert.bindNull(5)
        try insert.run()
        try insert.bind(1, Int64.max)
        try insert.bind(2, 0.0)
        try insert.bind(3, "")
        try insert.bind(4, [UInt8]())
        try insert.bind(5, Int?.none)
        try insert.run()

        let select = try db.statement("SELECT i, d, s, b, n, typeof(s), typeof(b) FROM t ORDER BY i")
        #expect(try select.step())
        #expect(select.int64(0) == Int64.min)
        #expect(select.double(1) == -1.5e300)
        #expect(select.text(2) == text)
        #expect(select.blob(3) == blob)
        #expect(select.isNull(4))
        #expect(try select.step())
        #expect(select.int64(0) == Int64.max)
        #expect(select.text(2) == "")
        #expect(select.blob(3) == [])
        // Empty text and empty BLOBs must stay what they are, not become NULL.
        #expect(select.text(5) == "text")
        #expect(select.text(6) == "blob")
        #expect(try !select.step())
    }

    @Test func opensInWALWithForeignKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Database(path: dir.string + "/t.sqlite")
        #expect(try db.scalarText("PRAGMA journal_mode") == "wal")
        #expect(try db.scalarInt("PRAGMA foreign_keys") == 1)
        #expect(try db.scalarInt("PRAGMA busy_timeout") == 5000)
    }

    @Test func transactionRollsBackOnThrow() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Database(path: dir.string + "/t.sqlite")
        try db.execute("CREATE TABLE t(x INTEGER)")
        #expect(throws: CatalogError.grantsForUnknownApp("boom")) {
            try db.transaction { () throws(CatalogError) in
                try db.execute("INSERT INTO t VALUES(1)")
                throw CatalogError.grantsForUnknownApp("boom")
            }
        }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 0)
        try db.transaction(durability: .powerLoss) { () throws(CatalogError) in try db.execute("INSERT INTO t VALUES(2)") }
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 1)
        #expect(try db.scalarInt("PRAGMA synchronous") == 2)  // FULL stays set until the next bulk write
    }

    @Test func sqlErrorsCarryCodeAndMessage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let db = try Database(path: dir.string + "/t.sqlite")
        do {
            try db.execute("SELECT * FROM missing_table")
            Issue.record("expected an error")
        } catch {
            guard case .sqlite(let code, let message) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(code == 1)
            #expect(message.contains("missing_table"))
        }
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.write(Array(repeating: UInt8(ascii: "x"), count: 4096), to: dir.child("junk.sqlite"))
        #expect {
            _ = try Catalog.open(at: dir.string + "/junk.sqlite")
        } throws: { error in
            guard case CatalogError.corrupt(let path, _) = error else { return false }
            return path.hasSuffix("junk.sqlite")
        }
    }

    @Test func openFailureNamesThePath() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.write([1], to: dir.child("file"))
        // A path below a regular file cannot be created.
        #expect {
            _ = try Catalog.open(at: dir.string + "/file/sub/catalog.sqlite")
        } throws: { error in
            guard case CatalogError.cannotCreateDirectory(let path, _) = error else { return false }
            return path.hasSuffix("/file/sub")
        }
    }
}
