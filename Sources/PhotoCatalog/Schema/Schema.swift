/// The catalog's tables, versioned with `PRAGMA user_version` and brought up to date by
/// `migrate`, one transaction per step.
///
/// Version 1:
/// - `assets`: one row per catalogued file. `path` is the library-relative path as raw
///   bytes (names need not be UTF-8). The capture date is stored as its sortable
///   `YYYYMMDDHHMMSS` key plus the UTC offset in minutes. `problems` is newline-joined.
///   Redaction plans are BLOBs in `RedactionPlan.encoded()`'s format.
/// - `failures`: files that are not media or could not be read, with the stat that was
///   seen, so incremental indexing skips them too and `photofs show` can explain.
/// - `apps` and `grants`: the access state. Grants are keyed on the asset id, not the
///   path, so they follow renames and moves; they are not tied to `assets` by a foreign
///   key on purpose: a grant outlives its file, and a file that comes back with the
///   same content is granted again. `position` orders an app's selection (gaps allowed).
/// - `settings`: key/value pairs, such as the library root.
///
/// Version 2 (no new tables): redaction plans made before IPTC place names were redacted
/// may leave a city in a `strip` view. The step forgets every asset's inode, so the next
/// index sees each file as touched, reads it again and stores a fresh plan under the same
/// id (grants unchanged); `photofs mount` indexes before the mount is ready, so no view
/// serves an old plan. A later change to the planner adds a step like it.
///
/// Version 3: sampled fingerprints and ctime (see `sampledFingerprintsStep`).
/// Version 4: `assets.location_sources` (see `Schema+LocationSources.swift`).
/// Version 5: `access_log` (see `Schema+AccessLog.swift`).
/// Version 6: rule grants, exclusions, expiry, one-time runs (see `Schema+GrantTerms.swift`).
/// Version 7: `apps.representation` and `apps.quality` (see `Schema+Representation.swift`).
/// Version 8: `apps.metadata`, `assets.private_plans` (see `Schema+MetadataPolicy.swift`).
/// Version 9: covering indexes for the read path's plan fetch (see `Schema+PlanIndexes.swift`).
/// Version 10: the plans in `asset_plans`, `assets.withheld` (see `Schema+PlanTable.swift`).
/// Version 11: every file read again for the trailer walk (see `Schema+TrailerWalk.swift`).
/// Version 12: `content_identifiers`, which pair Live Photos (see `Schema+ContentIdentifiers.swift`).
enum Schema {
    /// The version that moved the plans into `asset_plans`.
    static let planTableVersion = 10

    /// The newest schema version this code writes and understands.
    static let currentVersion = 12

    /// The columns of `assets` that version 1 created and every later version keeps as
    /// they were, in order: the version-1 table and the version-10 rebuild both start
    /// with them. Part of migrations that catalogs have run: never edit.
    static let assetColumnsOfVersion1 = """
        id TEXT PRIMARY KEY NOT NULL,
        fingerprint TEXT NOT NULL,
        path BLOB NOT NULL UNIQUE,
        size INTEGER NOT NULL,
        mtime_ns INTEGER NOT NULL,
        inode INTEGER NOT NULL,
        format TEXT NOT NULL,
        capture_key INTEGER,
        capture_offset_min INTEGER,
        date_source TEXT NOT NULL,
        make TEXT,
        model TEXT,
        lens TEXT,
        orientation INTEGER,
        width INTEGER,
        height INTEGER,
        latitude REAL,
        longitude REAL,
        altitude REAL,
        has_exif INTEGER NOT NULL,
        software TEXT,
        says_screenshot INTEGER NOT NULL,
        problems TEXT NOT NULL,
        """

    /// The SQL that takes a catalog from version `index` to `index + 1`.
    static let migrations: [String] = [
        """
        CREATE TABLE assets (
            \(assetColumnsOfVersion1)
            redaction_strip BLOB NOT NULL,
            redaction_coarse BLOB NOT NULL,
            indexed_at_ns INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX assets_fingerprint ON assets(fingerprint);
        CREATE TABLE failures (
            path BLOB PRIMARY KEY NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            kind TEXT NOT NULL,
            errno INTEGER NOT NULL,
            recorded_at_ns INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE TABLE apps (
            name TEXT PRIMARY KEY NOT NULL,
            filter TEXT NOT NULL,
            location TEXT NOT NULL,
            selection_limit INTEGER NOT NULL,
            uid INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE grants (
            app TEXT NOT NULL REFERENCES apps(name) ON DELETE CASCADE ON UPDATE CASCADE,
            asset_id TEXT NOT NULL,
            position INTEGER NOT NULL,
            granted_at_ns INTEGER NOT NULL,
            PRIMARY KEY (app, asset_id)
        ) WITHOUT ROWID;
        CREATE INDEX grants_order ON grants(app, position);
        CREATE TABLE settings (
            key TEXT PRIMARY KEY NOT NULL,
            value BLOB NOT NULL
        ) WITHOUT ROWID;
        """,
        """
        UPDATE assets SET inode = 0;
        """,
        sampledFingerprintsStep,
        locationSourcesStep,
        accessLogStep,
        grantTermsStep,
        representationStep,
        metadataPolicyStep,
        planIndexesStep,
        planTableStep,
        trailerWalkStep,
        contentIdentifiersStep,
    ]

    /// Brings the database to `currentVersion`; a no-op when it is there already.
    /// Returns the version found before migrating.
    @discardableResult
    static func migrate(_ db: Database) throws(CatalogError) -> Int {
        let found = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
        guard found <= currentVersion else { throw .schemaTooNew(found: found, supported: currentVersion) }
        guard found < currentVersion else { return found }
        try definePlanTableFunctions(db)
        if found == 0 {
            // A new catalog takes every step in one transaction: one sync instead of one
            // per step (each is a power-loss-safe commit), which a fresh index of a small
            // library would otherwise wait for before reading its first file.
            try db.transaction(durability: .powerLoss) { () throws(CatalogError) in
                guard try db.scalarInt("PRAGMA user_version") ?? 0 == 0 else { return }
                for step in migrations { try db.execute(step) }
                try db.execute("PRAGMA user_version=\(currentVersion)")
            }
        }
        for version in found..<currentVersion {
            try db.transaction(durability: .powerLoss) { () throws(CatalogError) in
                // Re-read inside the write lock: another process may have migrated meanwhile.
                let now = Int(try db.scalarInt("PRAGMA user_version") ?? 0)
                guard now == version else { return }
                try db.execute(migrations[version])
                try db.execute("PRAGMA user_version=\(version + 1)")
            }
        }
        if found > 0, found < planTableVersion {
            // The rebuilt `assets` left the old table's pages free: most of the file at a
            // million assets (4.4 GB of which 1.4 GB in use). Given back once; a catalog
            // that another connection is reading keeps them (they are reused by later writes).
            try? db.execute("VACUUM")
        }
        return found
    }
}
