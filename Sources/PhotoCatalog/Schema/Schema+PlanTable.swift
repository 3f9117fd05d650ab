import MediaFormats
import PhotoCore

extension Schema {
    /// The step that moves the redaction plans out of `assets` into `asset_plans`, one row
    /// per (plan kind, path): `PlanRows.Kind`'s number, the path, the asset id, the file
    /// version the plan was made for (size, mtime, inode, ctime) and the encoded plan (an
    /// empty BLOB: private plans not made yet). `assets` keeps `withheld`, the
    /// `WithheldPlans` bits its snapshot needs, instead of the three plan columns, and the
    /// three covering plan indexes of version 9 go.
    ///
    /// Why: an `assets` row with its plans (about 2 KB) outgrew what SQLite keeps of a cell
    /// on its page, so every read of the table (the mount's snapshot reads all of it) went
    /// through overflow pages, and the covering indexes stored every plan twice. Rows of
    /// `asset_plans` are small enough to stay on their page (a lookup compares keys in
    /// place), and one kind's rows are neighbours in path order, so the read path's fetch
    /// of a plan with the plans of the next files in its folder is one short range read of
    /// the view's kind only (`StoredPlans`).
    ///
    /// `assets` is rebuilt (SQLite cannot drop a column that an index holds); the copy keeps
    /// every row, and the bits are what the snapshot read from the plans before: a plan that
    /// does not say "served" withholds its file (`withheldPlans(strip:coarse:privatePlans:)`,
    /// defined for the migration as `photofs_withheld_plans`). Every write of an asset's
    /// row writes its plan rows (`AssetRows.write`); a later step that changes a row's
    /// path or file version changes its plan rows too.
    static let planTableStep = """
        CREATE TABLE asset_plans (
            kind INTEGER NOT NULL,
            path BLOB NOT NULL,
            id TEXT NOT NULL,
            size INTEGER NOT NULL,
            mtime_ns INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            ctime_ns INTEGER NOT NULL,
            plan BLOB NOT NULL,
            PRIMARY KEY (kind, path)
        ) WITHOUT ROWID;
        INSERT INTO asset_plans(kind, path, id, size, mtime_ns, inode, ctime_ns, plan)
            SELECT 0, path, id, size, mtime_ns, inode, ctime_ns, redaction_strip FROM assets INDEXED BY assets_plan_strip ORDER BY path;
        INSERT INTO asset_plans(kind, path, id, size, mtime_ns, inode, ctime_ns, plan)
            SELECT 1, path, id, size, mtime_ns, inode, ctime_ns, redaction_coarse FROM assets INDEXED BY assets_plan_coarse ORDER BY path;
        INSERT INTO asset_plans(kind, path, id, size, mtime_ns, inode, ctime_ns, plan)
            SELECT 2, path, id, size, mtime_ns, inode, ctime_ns, coalesce(private_plans, x'')
            FROM assets INDEXED BY assets_plan_private ORDER BY path;
        CREATE TABLE assets_rebuilt (
            \(assetColumnsOfVersion1)
            indexed_at_ns INTEGER NOT NULL,
            ctime_ns INTEGER NOT NULL DEFAULT 0,
            content_sha256 TEXT,
            location_sources INTEGER NOT NULL DEFAULT 64,
            withheld INTEGER NOT NULL DEFAULT 31
        ) WITHOUT ROWID;
        INSERT INTO assets_rebuilt(
            id, fingerprint, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, date_source, make, model, lens,
            orientation, width, height, latitude, longitude, altitude, has_exif, software, says_screenshot, problems,
            indexed_at_ns, ctime_ns, content_sha256, location_sources, withheld)
            SELECT id, fingerprint, path, size, mtime_ns, inode, format, capture_key, capture_offset_min, date_source, make, model,
                lens, orientation, width, height, latitude, longitude, altitude, has_exif, software, says_screenshot, problems,
                indexed_at_ns, ctime_ns, content_sha256, location_sources,
                photofs_withheld_plans(redaction_strip, redaction_coarse, private_plans)
            FROM assets;
        DROP TABLE assets;
        ALTER TABLE assets_rebuilt RENAME TO assets;
        CREATE INDEX assets_fingerprint ON assets(fingerprint);
        CREATE INDEX assets_state ON assets(path, id, size, mtime_ns, inode, ctime_ns);
        """

    /// Defines the SQL functions `planTableStep` calls, on the connection that migrates.
    static func definePlanTableFunctions(_ db: Database) throws(CatalogError) {
        try db.defineFunction("photofs_withheld_plans", arguments: 3) { plans in
            Int64(withheldPlans(strip: plans[0], coarse: plans[1], privatePlans: plans[2]).rawValue)
        }
    }

    /// Which of the stored plans (as the three plan columns of version 9 held them; nil:
    /// NULL) withhold the file. A location plan is served only when its kind byte says
    /// "patches"; private plans as `PrivatePlans.isWithheld` reads them.
    static func withheldPlans(strip: UnsafeRawBufferPointer?, coarse: UnsafeRawBufferPointer?, privatePlans: UnsafeRawBufferPointer?)
        -> WithheldPlans
    {
        var withheld: WithheldPlans = []
        if strip?.first != 0 { withheld.insert(.strip) }
        if coarse?.first != 0 { withheld.insert(.coarse) }
        let encoded = privatePlans.map { Array($0) } ?? []
        for policy in LocationPolicy.allCases where PrivatePlans.isWithheld(for: policy, encoded: encoded) {
            withheld.insert(WithheldPlans.privatePlan(policy))
        }
        return withheld
    }
}
