import PhotoCore

/// The catalog's side of indexing: reading what is stored under a scope and writing a
/// batch of results in one transaction.
extension Catalog {
    /// The stored state of every asset and failure within the scope, by path.
    func storedStates(in scope: IndexScope) throws(CatalogError) -> (
        assets: [LibraryPath: StoredFileState], failures: [LibraryPath: FileStat]
    ) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> ([LibraryPath: StoredFileState], [LibraryPath: FileStat]) in
            let db = c.db
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            var assets: [LibraryPath: StoredFileState] = [:]
            var failures: [LibraryPath: FileStat] = [:]
            for (lower, upper) in Self.pathRanges(scope) {
                // Two statements, not `(?2 IS NULL OR path < ?2)`: with the OR, SQLite uses
                // only the lower bound and walks the index to its end (a whole-catalog scan
                // for one folder near the start of the alphabet).
                let columns = "SELECT path, id, fingerprint, size, mtime_ns, inode FROM assets"
                let a = try db.statement(upper == nil ? columns + " WHERE path >= ?1" : columns + " WHERE path >= ?1 AND path < ?2")
                try a.bind(1, lower)
                if let upper { try a.bind(2, upper) }
                while try a.step() {
                    let path = LibraryPath(bytes: a.blob(0))
                    guard scope.contains(path), let id = AssetID(a.text(1)) else { continue }
                    assets[path] = StoredFileState(
                        id: id, fingerprint: a.text(2), size: a.int64(3), mtimeNanoseconds: a.int64(4),
                        inode: UInt64(bitPattern: a.int64(5)))
                }
                a.reset()
                let failureColumns = "SELECT path, size, mtime_ns, inode FROM failures"
                let f = try db.statement(
                    upper == nil ? failureColumns + " WHERE path >= ?1" : failureColumns + " WHERE path >= ?1 AND path < ?2")
                try f.bind(1, lower)
                if let upper { try f.bind(2, upper) }
                while try f.step() {
                    let path = LibraryPath(bytes: f.blob(0))
                    guard scope.contains(path) else { continue }
                    failures[path] = FileStat(size: f.int64(1), mtimeNanoseconds: f.int64(2), inode: UInt64(bitPattern: f.int64(3)))
                }
                f.reset()
            }
            return (assets, failures)
        }
    }

    /// The stored state of every failure, by path.
    func failureStates() throws(CatalogError) -> [LibraryPath: FileStat] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [LibraryPath: FileStat] in
            let f = try c.db.statement("SELECT path, size, mtime_ns, inode FROM failures")
            defer { f.reset() }
            var failures: [LibraryPath: FileStat] = [:]
            while try f.step() {
                failures[LibraryPath(bytes: f.blob(0))] = FileStat(
                    size: f.int64(1), mtimeNanoseconds: f.int64(2), inode: UInt64(bitPattern: f.int64(3)))
            }
            return failures
        }
    }

    /// Byte ranges of `path` that cover the scope (a superset; callers filter exactly).
    /// BLOBs compare like memcmp, and `0` follows `/`, so `F/` ≤ path < `F0` is the subtree.
    /// An upper bound of nil means none.
    static func pathRanges(_ scope: IndexScope) -> [([UInt8], [UInt8]?)] {
        let everything: [([UInt8], [UInt8]?)] = [([], nil)]
        guard case .folders(let folders) = scope else { return everything }
        var ranges: [([UInt8], [UInt8]?)] = []
        for folder in folders {
            if folder.path.bytes.isEmpty { return everything }
            ranges.append((folder.path.bytes + [UInt8(ascii: "/")], folder.path.bytes + [UInt8(ascii: "0")]))
        }
        return ranges
    }

    /// Runs `body` with the database inside one write transaction (`synchronous=NORMAL`).
    func withIndexTransaction(_ body: (IndexWriter) throws(CatalogError) -> Void) throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction { () throws(CatalogError) in try body(IndexWriter(db: db)) }
        }
    }
}

/// The writes an index run makes, inside one transaction.
struct IndexWriter {
    let db: Database

    func write(_ record: AssetRecord) throws(CatalogError) {
        try AssetRows.write(record, in: db)
        try FailureRows.delete(record.asset.path, in: db)
    }

    func delete(_ id: AssetID) throws(CatalogError) { try AssetRows.delete(id, in: db) }

    func write(_ failure: FailureRecord) throws(CatalogError) { try FailureRows.write(failure, in: db) }

    func deleteFailure(_ path: LibraryPath) throws(CatalogError) { try FailureRows.delete(path, in: db) }

    /// The stored record with this id.
    func record(_ id: AssetID) throws(CatalogError) -> AssetRecord? {
        try AssetRows.records(in: db, where: "id = ?1") { s throws(CatalogError) in try s.bind(1, id.rawValue) }.first
    }

    /// Whether some row holds this id.
    func isTaken(_ id: AssetID) throws(CatalogError) -> Bool {
        let s = try db.statement("SELECT 1 FROM assets WHERE id = ?1")
        defer { s.reset() }
        try s.bind(1, id.rawValue)
        return try s.step()
    }
}
