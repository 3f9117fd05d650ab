import PhotoCore

extension Catalog {
    /// Where the copy of the catalog's assets that a mount reads instead of the `assets`
    /// table is kept (`SnapshotFile`): beside the catalog, as private as it.
    public var snapshotFilePath: String { path + "-snapshot" }

    /// What a full read from the `assets` table can leave for `saveSnapshotFile`: the
    /// generation and schema version it was read at. Nil when the assets came from the file
    /// (it is up to date) or the catalog is read-only.
    public struct SnapshotFileTicket: Sendable {
        let stamp: SnapshotFile.Stamp
    }

    /// The `settings` key of the asset generation: a number that every write transaction
    /// that changes the `assets` table moves (`bumpAssetsGeneration`), so that a snapshot
    /// file made at one generation is known to be stale at any other.
    static let assetsGenerationKey = "assets_generation"

    /// The asset generation in `db`'s current transaction; 0 for a catalog never written since it was kept.
    static func assetsGeneration(in db: Database) throws(CatalogError) -> Int64 {
        let s = try db.statement("SELECT CAST(value AS INTEGER) FROM settings WHERE key = ?1")
        defer { s.reset() }
        try s.bind(1, assetsGenerationKey)
        return try s.step() ? s.int64(0) : 0
    }

    /// Moves the asset generation, inside the caller's write transaction: call it in every
    /// transaction that writes the `assets` table (index runs, `upsert`, `deleteAssets`).
    static func bumpAssetsGeneration(in db: Database) throws(CatalogError) {
        let s = try db.statement(
            "INSERT INTO settings(key, value) VALUES(?1, 1) "
                + "ON CONFLICT(key) DO UPDATE SET value = CAST(value AS INTEGER) + 1")
        try s.bind(1, assetsGenerationKey)
        try s.run()
    }

    /// The stamp a snapshot file must carry to stand for `db`'s current transaction.
    static func snapshotStamp(in db: Database) throws(CatalogError) -> SnapshotFile.Stamp {
        SnapshotFile.Stamp(generation: try assetsGeneration(in: db), schemaVersion: try db.scalarInt("PRAGMA user_version") ?? 0)
    }

    /// A full read for serving: `snapshot()`, and when its assets were read from the table
    /// rather than from an up-to-date snapshot file, the ticket with which
    /// `saveSnapshotFile` can keep them for the next mount.
    public func snapshotForServing() throws(CatalogError) -> (snapshot: LibrarySnapshot, ticket: SnapshotFileTicket?) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> (LibrarySnapshot, SnapshotFileTicket?) in
            let read = try Self.readAll(&c, reusing: [], snapshotFile: snapshotFilePath)
            return (read.snapshot, read.readFromTable.map { SnapshotFileTicket(stamp: $0) })
        }
    }

    /// Writes `snapshot` (the one `snapshotForServing` returned with `ticket`) to the
    /// snapshot file, replacing any older one. Takes about a second at a million assets:
    /// call it off the path that makes a mount ready.
    public func saveSnapshotFile(_ snapshot: LibrarySnapshot, ticket: SnapshotFileTicket) throws(SnapshotFileError) {
        guard !isReadOnly else { return }
        try SnapshotFile.write(snapshot.assets, stamp: ticket.stamp, to: snapshotFilePath)
    }
}
