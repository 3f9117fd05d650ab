import CatalogTestSupport
import Glibc
import Testing

@testable import PhotoCatalog

/// The index run's checkpointer copies the WAL into the database on its own connection, so
/// the next commit starts the WAL from its beginning instead of growing it.
@Suite("index checkpointer")
struct IndexCheckpointerTests {
    static func size(_ path: String) -> Int {
        var status = stat()
        return stat(path, &status) == 0 ? Int(status.st_size) : -1
    }

    static func writeRows(_ db: Database, from first: Int) throws {
        try db.transaction { () throws(CatalogError) in
            let insert = try db.statement("INSERT INTO t VALUES(?1, ?2)")
            for n in first..<(first + 200) {
                try insert.bind(1, Int64(n))
                try insert.bind(2, [UInt8](repeating: UInt8(n & 0xFF), count: 500))
                try insert.run()
            }
        }
    }

    @Test func aCheckpointedWALIsWrittenFromItsBeginningAgain() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let db = try Database(path: path)
        try db.execute("PRAGMA wal_autocheckpoint=0")
        try db.execute("CREATE TABLE t(n INTEGER PRIMARY KEY, b BLOB)")
        try Self.writeRows(db, from: 0)
        let afterOne = Self.size(path + "-wal")
        #expect(afterOne > 100_000)

        // Without a checkpoint, the next commit makes the WAL longer.
        try Self.writeRows(db, from: 200)
        let afterTwo = Self.size(path + "-wal")
        #expect(afterTwo > afterOne)

        let checkpointer = IndexCheckpointer(path: path)
        checkpointer.request()
        checkpointer.finish()
        #expect(try db.scalarInt("SELECT count(*) FROM t") == 400)
        // Every frame is in the database now: the next commit starts the WAL again.
        try Self.writeRows(db, from: 400)
        #expect(Self.size(path + "-wal") == afterTwo)
        let reader = try Database(path: path, readOnly: .readOnly)
        #expect(try reader.scalarInt("SELECT count(*) FROM t") == 600)
    }
}
