import PhotoCore

extension Catalog {
    /// Where the copy of the catalog's assets that a mount reads instead of the `assets`
    /// table is kept (`SnapshotFile`): beside the catalog, as private as it.
    public var snapshotFilePath: String { path + "-snapshot" }

    /// Where the library views' tables of the snapshot file's assets are kept (`ViewTablesFile`).
    public var viewTablesFilePath: String { path + "-views" }

    /// What a full read for serving can leave for `saveSnapshotFile`: the generation and
    /// schema version it was read at, and the snapshot file's hash when the assets came from
    /// that file (then only the view tables file is missing or stale). Nil when both files
    /// were up to date.
    public struct SnapshotFileTicket: Sendable {
        let stamp: SnapshotFile.Stamp
        let snapshotHash: UInt64?

        /// Whether the assets were read from an up-to-date snapshot file.
        public var readFromSnapshotFile: Bool { snapshotHash != nil }
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

    /// A full read for serving: `snapshot()`, the library views' tables when they were kept
    /// for the very assets read (from the snapshot file, `ViewTablesFile`), and a ticket with
    /// which `saveSnapshotFile` keeps what was missing for the next mount (nil when nothing was).
    /// Without `viewTables` (a reader that builds no views), the tables file is not read and
    /// only a missing snapshot file counts as missing.
    public func snapshotForServing(viewTables: Bool = true) throws(CatalogError) -> (
        snapshot: LibrarySnapshot, ticket: SnapshotFileTicket?, tables: LibraryTables?
    ) {
        let read = try connection.withLock { (c: inout Connection) throws(CatalogError) in
            try Self.readAll(&c, reusing: [], snapshotFile: snapshotFilePath)
        }
        switch read.source {
        case .table(let stamp):
            return (read.snapshot, stamp.map { SnapshotFileTicket(stamp: $0, snapshotHash: nil) }, nil)
        case .snapshotFile(let stamp, let hash):
            guard viewTables else { return (read.snapshot, nil, nil) }
            let tables = ViewTablesFile.read(
                viewTablesFilePath, stamp: ViewTablesFile.Stamp(snapshot: stamp, snapshotHash: hash, assetCount: read.snapshot.assets.count)
            )
            return (read.snapshot, tables == nil ? SnapshotFileTicket(stamp: stamp, snapshotHash: hash) : nil, tables)
        }
    }

    /// Keeps what `snapshotForServing` found missing for `snapshot` (the one it returned with
    /// `ticket`): the snapshot file when the assets were read from the table, then the view
    /// tables file, computing the tables on the calling thread. Takes a second or two at a
    /// million assets: call it off the path that makes a mount ready. When `stop` is set
    /// meanwhile it ends at its next check with `SnapshotFileError.stopped`, leaving the files
    /// as they were (no new file, no temporary one).
    public func saveSnapshotFile(_ snapshot: LibrarySnapshot, ticket: SnapshotFileTicket, stop: StopSignal? = nil)
        throws(SnapshotFileError)
    {
        guard !isReadOnly else { return }
        let hash: UInt64
        if let kept = ticket.snapshotHash {
            hash = kept
        } else {
            guard let written = try SnapshotFile.write(snapshot.assets, stamp: ticket.stamp, to: snapshotFilePath, stop: stop) else {
                return
            }
            hash = written
        }
        if stop?.isStopped == true { throw .stopped }
        let tables = LibraryTables(snapshot.assets, onTwoCores: false)
        if stop?.isStopped == true { throw .stopped }
        try ViewTablesFile.write(
            tables, stamp: ViewTablesFile.Stamp(snapshot: ticket.stamp, snapshotHash: hash, assetCount: snapshot.assets.count),
            to: viewTablesFilePath, stop: stop)
    }
}
