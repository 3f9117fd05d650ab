import PhotoCore

/// The catalog's side of indexing: reading what is stored under a scope and writing a
/// batch of results in one transaction.
extension Catalog {
    /// The stored state of every asset (in bytewise path order) and failure (by path) within
    /// the scope; the fingerprints are left empty (see `fingerprints(of:)`): an unchanged
    /// file needs none.
    func storedStates(in scope: IndexScope) throws(CatalogError) -> StoredStates {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> StoredStates in
            let db = c.db
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            var assets: [StoredRow] = []
            var failures: [LibraryPath: FileStat] = [:]
            let ranges = Self.pathRanges(scope)
            for (lower, upper) in ranges {
                // The covering index `assets_state` starts with the path: the order is free.
                let a = try Self.rangeStatement(
                    "SELECT path, id, size, mtime_ns, inode, ctime_ns FROM assets", from: lower, to: upper, orderedByPath: true, in: db)
                while try a.step() {
                    let path = LibraryPath(bytes: a.blob(0))
                    guard scope.contains(path), let id = a.withTextBytes(1, { AssetID(utf8: $0) }) else { continue }
                    assets.append(
                        StoredRow(
                            path: path,
                            state: StoredFileState(
                                version: FileVersion(
                                    id: id, size: a.int64(2), mtimeNanoseconds: a.int64(3), inode: UInt64(bitPattern: a.int64(4)),
                                    ctimeNanoseconds: a.int64(5)),
                                fingerprint: "")))
                }
                a.reset()
                try Self.readFailures(from: lower, to: upper, in: db, where: { scope.contains($0) }, into: &failures)
            }
            if ranges.count > 1 { assets.sort { $0.path < $1.path } }
            return StoredStates(assets: assets, failures: failures)
        }
    }

    /// The fingerprints of these assets, by id (one read transaction).
    func fingerprints(of ids: [AssetID]) throws(CatalogError) -> [AssetID: String] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [AssetID: String] in
            let db = c.db
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            let s = try db.statement("SELECT fingerprint FROM assets WHERE id = ?1")
            var result: [AssetID: String] = [:]
            for id in ids {
                s.reset()
                try s.bind(1, id.rawValue)
                if try s.step() { result[id] = s.text(0) }
            }
            s.reset()
            return result
        }
    }

    /// Every asset in the scope with its stored whole-file hash, in path order.
    func contentHashes(in scope: IndexScope) throws(CatalogError) -> [StoredContentHash] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [StoredContentHash] in
            let db = c.db
            try db.execute("BEGIN")
            defer { try? db.execute("COMMIT") }
            var rows: [StoredContentHash] = []
            for (lower, upper) in Self.pathRanges(scope) {
                let s = try Self.rangeStatement("SELECT path, id, size, content_sha256 FROM assets", from: lower, to: upper, in: db)
                while try s.step() {
                    let path = LibraryPath(bytes: s.blob(0))
                    guard scope.contains(path), let id = AssetID(s.text(1)) else { continue }
                    rows.append(StoredContentHash(id: id, path: path, size: s.int64(2), contentSHA256: s.isNull(3) ? nil : s.text(3)))
                }
                s.reset()
            }
            return rows.sorted { $0.path < $1.path }
        }
    }

    /// The stored state of every failure, by path.
    func failureStates() throws(CatalogError) -> [LibraryPath: FileStat] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [LibraryPath: FileStat] in
            var failures: [LibraryPath: FileStat] = [:]
            try Self.readFailures(from: [], to: nil, in: c.db, where: { _ in true }, into: &failures)
            return failures
        }
    }

    /// `select` limited to `lower` ≤ path < `upper` (no upper bound when nil), bound and
    /// ready to step. Two statements, not `(?2 IS NULL OR path < ?2)`: with the OR, SQLite
    /// bounds the index search from below only and walks it to its end (a whole-catalog
    /// scan for one folder near the start of the alphabet).
    private static func rangeStatement(
        _ select: String, from lower: [UInt8], to upper: [UInt8]?, orderedByPath: Bool = false, in db: Database
    ) throws(CatalogError) -> Statement {
        let range = upper == nil ? " WHERE path >= ?1" : " WHERE path >= ?1 AND path < ?2"
        let s = try db.statement(select + range + (orderedByPath ? " ORDER BY path" : ""))
        try s.bind(1, lower)
        if let upper { try s.bind(2, upper) }
        return s
    }

    /// Adds the failures with `lower` ≤ path < `upper` that `keep` accepts to `failures`.
    private static func readFailures(
        from lower: [UInt8], to upper: [UInt8]?, in db: Database, where keep: (LibraryPath) -> Bool,
        into failures: inout [LibraryPath: FileStat]
    ) throws(CatalogError) {
        let f = try rangeStatement("SELECT path, size, mtime_ns, inode, ctime_ns FROM failures", from: lower, to: upper, in: db)
        defer { f.reset() }
        while try f.step() {
            let path = LibraryPath(bytes: f.blob(0))
            guard keep(path) else { continue }
            failures[path] = FileStat(
                size: f.int64(1), mtimeNanoseconds: f.int64(2), inode: UInt64(bitPattern: f.int64(3)), ctimeNanoseconds: f.int64(4))
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
    /// `intoEmpty`: the catalog held nothing when the run began and nobody else writes it
    /// (see `IndexWriter.intoEmpty`).
    func withIndexTransaction(intoEmpty: Bool = false, _ body: (IndexWriter) throws(CatalogError) -> Void) throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction { () throws(CatalogError) in
                try Self.bumpAssetsGeneration(in: db)
                try body(IndexWriter(db: db, intoEmpty: intoEmpty))
            }
        }
    }
}

/// What the catalog holds under a scope: the state an index run compares with.
struct StoredStates: Sendable {
    /// Assets in bytewise path order (the order of a walk).
    var assets: [StoredRow]
    var failures: [LibraryPath: FileStat]
}

/// One catalogued asset's path and stored state.
struct StoredRow: Sendable {
    var path: LibraryPath
    var state: StoredFileState
}

/// The writes an index run makes, inside one transaction.
struct IndexWriter {
    let db: Database
    /// The catalog held no asset and no failure when the run began, and no other process
    /// can write it (a catalog being built, see `NewCatalog`): every path and id written
    /// is written once, so nothing is there to replace, move or delete first.
    var intoEmpty = false

    func write(_ record: AssetRecord) throws(CatalogError) {
        try AssetRows.write(record, in: db, isNew: intoEmpty)
        guard !intoEmpty else {
            if record.contentIdentifier != nil { try ContentIdentifierRows.set(record.contentIdentifier, of: record.asset.id, in: db) }
            return
        }
        try FailureRows.delete(record.asset.path, in: db)
        try ContentIdentifierRows.set(record.contentIdentifier, of: record.asset.id, in: db)
    }

    func delete(_ id: AssetID) throws(CatalogError) {
        try AssetRows.delete(id, in: db)
        try ContentIdentifierRows.set(nil, of: id, in: db)
    }

    func write(_ failure: FailureRecord) throws(CatalogError) { try FailureRows.write(failure, in: db) }

    func deleteFailure(_ path: LibraryPath) throws(CatalogError) { try FailureRows.delete(path, in: db) }

    /// The stored record with this id.
    func record(_ id: AssetID) throws(CatalogError) -> AssetRecord? {
        var record = try AssetRows.records(in: db, where: "id = ?1") { s throws(CatalogError) in try s.bind(1, id.rawValue) }.first
        record?.contentIdentifier = try ContentIdentifierRows.identifier(of: id, in: db)
        return record
    }

    /// The id of the row at `path` when it holds content with this fingerprint: a row
    /// another index run wrote after this run read the catalog.
    func id(at path: LibraryPath, fingerprint: String) throws(CatalogError) -> AssetID? {
        let s = try db.statement("SELECT id FROM assets WHERE path = ?1 AND fingerprint = ?2")
        defer { s.reset() }
        try s.bind(1, path.bytes)
        try s.bind(2, fingerprint)
        return try s.step() ? AssetID(s.text(0)) : nil
    }

    /// Stores the whole-file hash of an asset; `forgetStat` also forgets its ctime (of its
    /// plan rows too, which must name the row's version), so the next index run reads the
    /// file again.
    func setContentHash(_ id: AssetID, _ digest: String, forgetStat: Bool) throws(CatalogError) {
        if forgetStat { try PlanRows.setCtime(of: id, to: 0, in: db) }
        let s = try db.statement(
            forgetStat
                ? "UPDATE assets SET content_sha256 = ?2, ctime_ns = 0 WHERE id = ?1"
                : "UPDATE assets SET content_sha256 = ?2 WHERE id = ?1")
        try s.bind(1, id.rawValue)
        try s.bind(2, digest)
        try s.run()
    }

    /// Whether some row holds this id.
    func isTaken(_ id: AssetID) throws(CatalogError) -> Bool {
        let s = try db.statement("SELECT 1 FROM assets WHERE id = ?1")
        defer { s.reset() }
        try s.bind(1, id.rawValue)
        return try s.step()
    }
}
