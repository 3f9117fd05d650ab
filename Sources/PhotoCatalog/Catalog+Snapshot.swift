import PhotoCore

extension Catalog {
    /// Everything the views need, read in one read transaction so that assets and grants
    /// agree with each other. Assets that are unchanged since `previous` (a snapshot of this
    /// catalog) are shared with it rather than read into new memory.
    public func snapshot(reusing previous: LibrarySnapshot? = nil) throws(CatalogError) -> LibrarySnapshot {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> LibrarySnapshot in
            try Self.readAll(&c, reusing: previous?.assets ?? [], snapshotFile: snapshotFilePath).snapshot
        }
    }

    /// `previous` (a snapshot this catalog returned) brought up to date after index runs of
    /// this process that changed only the assets with the `changed` ids (`IndexSummary.changedIDs`):
    /// those rows are read again and every other asset is kept. A 100,000-asset catalog is
    /// read in about 0.3 s; a handful of rows in well under a millisecond.
    ///
    /// Reads everything instead when another process wrote to the catalog since the last
    /// full read (its changes are in no summary of ours), or when much of it changed.
    public func snapshot(updating previous: LibrarySnapshot, changed: Set<AssetID>) throws(CatalogError) -> LibrarySnapshot {
        try update(previous, changed: changed).snapshot
    }

    /// `snapshot(updating:changed:)` with how its assets differ from `previous` position by
    /// position (`LibrarySnapshot.assets(replacing:with:)`: unchanged assets keep their
    /// places), so the views can be patched; nil when everything was read again.
    public func update(_ previous: LibrarySnapshot, changed: Set<AssetID>) throws(CatalogError) -> (
        snapshot: LibrarySnapshot, change: LibraryChange?
    ) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> (LibrarySnapshot, LibraryChange?) in
            try c.db.execute("BEGIN")
            var inTransaction = true
            defer { if inTransaction { try? c.db.execute("COMMIT") } }
            let version = try c.db.scalarInt("PRAGMA data_version")
            guard version == c.assetsDataVersion, changed.count <= max(1_000, previous.assets.count / 8) else {
                // A full read starts its own read transaction (see `readAll`).
                try c.db.execute("COMMIT")
                inTransaction = false
                return (try Self.readAll(&c, reusing: previous.assets).snapshot, nil)
            }
            let db = c.db
            let (assets, change) = try previous.assets(replacing: changed) { id throws(CatalogError) in
                try AssetRows.records(in: db, where: "id = ?1", plans: false) { s throws(CatalogError) in try s.bind(1, id.rawValue) }.map(
                    \.asset)
            }
            try c.access.refreshIfChanged(from: c.db)
            return (LibrarySnapshot(assets: assets, apps: c.access.apps, grants: c.access.grantLists()), change)
        }
    }

    /// Whether another connection (another process: `photofs index` run by hand, say) has
    /// committed since the last full read of the assets, so that a snapshot taken then may
    /// miss rows that no summary of ours names. False before the first full read.
    public var changedElsewhere: Bool {
        get throws(CatalogError) {
            try connection.withLock { (c: inout Connection) throws(CatalogError) -> Bool in
                guard let read = c.assetsDataVersion else { return false }
                return try c.db.scalarInt("PRAGMA data_version") != read
            }
        }
    }

    /// How many connections read the assets of a full read at once, each on its own thread
    /// (at 1,000,000 assets one takes over a second).
    static let fullReadParts = 2

    /// Every asset and the access state, in one read transaction (the caller must not be in
    /// one) that extra readers share (`SnapshotReaders`); records the `data_version` the
    /// assets were read at. `parts` connections read the assets, or just this one when the
    /// others cannot be shown to read the same state.
    ///
    /// With `snapshotFile` and nothing to reuse (a first read), the assets come from that
    /// file when it stands for this very catalog state (`SnapshotFile`); `source` says where
    /// they came from, at which stamp.
    static func readAll(
        _ c: inout Connection, reusing previous: ChunkedArray<Asset>, parts: Int = fullReadParts, snapshotFile: String? = nil
    ) throws(CatalogError) -> (snapshot: LibrarySnapshot, source: AssetSource) {
        let readers = SnapshotReaders(beside: c.db, count: parts - 1)
        try c.db.execute("BEGIN")
        defer { try? c.db.execute("COMMIT") }
        c.assetsDataVersion = try c.db.scalarInt("PRAGMA data_version")
        var stamp: SnapshotFile.Stamp?
        if let snapshotFile, previous.isEmpty {
            // Read inside the transaction: the stamp and the rows are of one state.
            let current = try snapshotStamp(in: c.db)
            if let (assets, hash) = SnapshotFile.read(snapshotFile, stamp: current) {
                try c.access.refreshIfChanged(from: c.db)
                return (
                    LibrarySnapshot(assets: assets, apps: c.access.apps, grants: c.access.grantLists()), .snapshotFile(current, hash: hash)
                )
            }
            stamp = current
        }
        let assets = try AssetRows.all(in: c.db, readers: readers.join(), reusing: previous)
        try c.access.refreshIfChanged(from: c.db)
        return (LibrarySnapshot(assets: assets, apps: c.access.apps, grants: c.access.grantLists()), .table(stamp))
    }

    /// Where a full read's assets came from.
    enum AssetSource {
        /// The `assets` table, at this stamp when one was taken (a first read).
        case table(SnapshotFile.Stamp?)
        /// The snapshot file with this hash, standing for the catalog at this stamp.
        case snapshotFile(SnapshotFile.Stamp, hash: UInt64)
    }
}
