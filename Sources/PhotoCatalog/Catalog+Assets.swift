import PhotoCore
import SystemKit

extension Catalog {
    /// The asset with this id, if catalogued.
    public func asset(id: AssetID) throws(CatalogError) -> AssetRecord? {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> AssetRecord? in
            try AssetRows.records(in: c.db, where: "id = ?1") { s throws(CatalogError) in try s.bind(1, id.rawValue) }.first
        }
    }

    /// The asset at this library-relative path, if catalogued.
    public func asset(at path: LibraryPath) throws(CatalogError) -> AssetRecord? {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> AssetRecord? in
            try AssetRows.records(in: c.db, where: "path = ?1") { s throws(CatalogError) in try s.bind(1, path.bytes) }.first
        }
    }

    /// The assets a user's word may mean: the asset with that id (any case) and the asset
    /// at that library-relative path (a leading `./` or `/` is ignored). Usually one.
    public func assets(matchingPathOrID text: [UInt8]) throws(CatalogError) -> [AssetRecord] {
        var found: [AssetRecord] = []
        if let id = AssetID(String(decoding: text, as: UTF8.self)), let record = try asset(id: id) {
            found.append(record)
        }
        var path = text[...]
        while path.first == UInt8(ascii: "/") { path = path.dropFirst() }
        while path.starts(with: [UInt8(ascii: "."), UInt8(ascii: "/")]) { path = path.dropFirst(2) }
        let normalized = LibraryPath(bytes: Array(path))
        if !normalized.bytes.isEmpty, let record = try asset(at: normalized), !found.contains(where: { $0.asset.id == record.asset.id }) {
            found.append(record)
        }
        return found
    }

    /// The catalogued assets whose fingerprint is this.
    public func assets(withFingerprint fingerprint: String) throws(CatalogError) -> [AssetRecord] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [AssetRecord] in
            try AssetRows.records(in: c.db, where: "fingerprint = ?1 ORDER BY path") { s throws(CatalogError) in try s.bind(1, fingerprint)
            }
        }
    }

    /// The number of catalogued assets.
    public func assetCount() throws(CatalogError) -> Int {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> Int in
            Int(try c.db.scalarInt("SELECT count(*) FROM assets") ?? 0)
        }
    }

    /// Inserts or replaces records by id, in one transaction. A record whose path is held
    /// by another id replaces that row too (a path names one file).
    public func upsert(_ records: [AssetRecord]) throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction { () throws(CatalogError) in
                try Self.bumpAssetsGeneration(in: db)
                for record in records {
                    try PlanRows.delete(at: record.asset.path, unlessOf: record.asset.id, in: db)
                    let s = try db.statement("DELETE FROM assets WHERE path = ?1 AND id <> ?2")
                    try s.bind(1, record.asset.path.bytes)
                    try s.bind(2, record.asset.id.rawValue)
                    try s.run()
                    try AssetRows.write(record, in: db)
                }
            }
        }
    }

    /// Removes assets by id (their grants stay).
    public func deleteAssets(_ ids: [AssetID]) throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction { () throws(CatalogError) in
                try Self.bumpAssetsGeneration(in: db)
                for id in ids { try AssetRows.delete(id, in: db) }
            }
        }
    }

    /// Every file the indexer could not catalogue, by path.
    public func failures() throws(CatalogError) -> [FailureRecord] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [FailureRecord] in
            try FailureRows.records(in: c.db, where: "1 ORDER BY path") { _ throws(CatalogError) in }
        }
    }

    /// Why the file at this path is not an asset, when the indexer recorded a failure.
    public func failure(at path: LibraryPath) throws(CatalogError) -> FailureRecord? {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> FailureRecord? in
            try FailureRows.records(in: c.db, where: "path = ?1") { s throws(CatalogError) in try s.bind(1, path.bytes) }.first
        }
    }
}

/// Reading and writing rows of the `failures` table.
enum FailureRows {
    static func records(in db: Database, where clause: String, bind: (Statement) throws(CatalogError) -> Void) throws(CatalogError)
        -> [FailureRecord]
    {
        let s = try db.statement("SELECT path, size, mtime_ns, inode, kind, errno, recorded_at_ns, ctime_ns FROM failures WHERE \(clause)")
        defer { s.reset() }
        try bind(s)
        var records: [FailureRecord] = []
        while try s.step() {
            let kind = s.text(4)
            let reason: AnalysisError =
                if kind == "unreadable" {
                    .unreadable(errno: Errno(rawValue: Int32(truncatingIfNeeded: s.int64(5))))
                } else if kind.hasPrefix("special-"), let special = SpecialFile(rawValue: String(kind.dropFirst(8))) {
                    .notRegularFile(special)
                } else {
                    .notMedia
                }
            records.append(
                FailureRecord(
                    path: LibraryPath(bytes: s.blob(0)), size: s.int64(1), mtimeNanoseconds: s.int64(2),
                    inode: UInt64(bitPattern: s.int64(3)), ctimeNanoseconds: s.int64(7), reason: reason,
                    recordedAtNanoseconds: s.int64(6)))
        }
        return records
    }

    static func write(_ record: FailureRecord, in db: Database) throws(CatalogError) {
        let s = try db.statement(
            "INSERT OR REPLACE INTO failures(path, size, mtime_ns, inode, kind, errno, recorded_at_ns, ctime_ns) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        )
        try s.bind(1, record.path.bytes)
        try s.bind(2, record.size)
        try s.bind(3, record.mtimeNanoseconds)
        try s.bind(4, Int64(bitPattern: record.inode))
        switch record.reason {
        case .notMedia:
            try s.bind(5, "notMedia")
            try s.bind(6, 0)
        case .unreadable(let errno):
            try s.bind(5, "unreadable")
            try s.bind(6, Int(errno.rawValue))
        case .notRegularFile(let kind):
            try s.bind(5, "special-" + kind.rawValue)
            try s.bind(6, 0)
        }
        try s.bind(7, record.recordedAtNanoseconds)
        try s.bind(8, record.ctimeNanoseconds)
        try s.run()
    }

    static func delete(_ path: LibraryPath, in db: Database) throws(CatalogError) {
        let s = try db.statement("DELETE FROM failures WHERE path = ?1")
        try s.bind(1, path.bytes)
        try s.run()
    }
}
