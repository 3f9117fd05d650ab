import MediaFormats
import PhotoCore

/// Reading and writing rows of the `asset_plans` table (see `Schema.planTableStep`): three
/// per asset, one per plan kind, keyed by (kind, path) and holding the asset id and the
/// file version the plan was made for. They follow the asset's row: written before it
/// (a moved asset's rows at its old path go), deleted with it.
enum PlanRows {
    /// Which plan a row holds (its `kind` column).
    enum Kind: Int64, CaseIterable {
        /// The plan for `--location strip`.
        case strip = 0
        /// The plan for `--location coarse`.
        case coarse = 1
        /// The encoded `PrivatePlans` (`--metadata private`; an empty BLOB: not made yet).
        case privatePlans = 2

        /// The plan a view with these policies is served with (`keep`/`keep` reads none).
        init(location: LocationPolicy, metadata: MetadataPolicy) {
            switch (metadata, location) {
            case (.private, _): self = .privatePlans
            case (.keep, .coarse): self = .coarse
            case (.keep, _): self = .strip
            }
        }

        var name: String {
            switch self {
            case .strip: "strip"
            case .coarse: "coarse"
            case .privatePlans: "private"
            }
        }
    }

    /// The rows of the asset with id `?1` at its stored path: every kind, by primary key.
    private static let rowsOfID = "kind IN (0, 1, 2) AND path = (SELECT path FROM assets WHERE id = ?1)"

    /// Writes the plan rows of `record`; call before writing its `assets` row, whose old
    /// path (when the asset moved) names the rows that go.
    /// `isNew`: no row has held this id before, so there are no old rows to remove.
    static func write(_ record: AssetRecord, in db: Database, isNew: Bool = false) throws(CatalogError) {
        let a = record.asset
        if !isNew {
            let moved = try db.statement("DELETE FROM asset_plans WHERE \(rowsOfID) AND path <> ?2")
            try moved.bind(1, a.id.rawValue)
            try moved.bind(2, a.path.bytes)
            try moved.run()
        }
        let s = try db.statement(
            "INSERT OR REPLACE INTO asset_plans(kind, path, id, size, mtime_ns, inode, ctime_ns, plan) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"
        )
        for kind in Kind.allCases {
            s.reset()
            try s.bind(1, kind.rawValue)
            try s.bind(2, a.path.bytes)
            try s.bind(3, a.id.rawValue)
            try s.bind(4, a.size)
            try s.bind(5, a.mtimeNanoseconds)
            try s.bind(6, Int64(bitPattern: a.inode))
            try s.bind(7, a.ctimeNanoseconds)
            switch kind {
            case .strip: try s.bind(8, record.redaction.strip.encoded())
            case .coarse: try s.bind(8, record.redaction.coarse.encoded())
            case .privatePlans: try s.bind(8, record.redaction.privatePlans.encoded)
            }
            try s.run()
        }
    }

    /// Deletes the plan rows of the asset with this id; call before deleting its row.
    static func delete(_ id: AssetID, in db: Database) throws(CatalogError) {
        let s = try db.statement("DELETE FROM asset_plans WHERE \(rowsOfID)")
        try s.bind(1, id.rawValue)
        try s.run()
    }

    /// Deletes the plan rows at `path` unless they are those of `id`: another asset's row at
    /// that path is being replaced.
    static func delete(at path: LibraryPath, unlessOf id: AssetID, in db: Database) throws(CatalogError) {
        let s = try db.statement("DELETE FROM asset_plans WHERE kind IN (0, 1, 2) AND path = ?1 AND id <> ?2")
        try s.bind(1, path.bytes)
        try s.bind(2, id.rawValue)
        try s.run()
    }

    /// Sets the inode change time of the asset's plan rows, as its row's is set.
    static func setCtime(of id: AssetID, to ctime: Int64, in db: Database) throws(CatalogError) {
        let s = try db.statement("UPDATE asset_plans SET ctime_ns = ?2 WHERE \(rowsOfID)")
        try s.bind(1, id.rawValue)
        try s.bind(2, ctime)
        try s.run()
    }

    /// The plans stored for this asset (for its id at its path); a kind without a row is
    /// not planned (withheld).
    static func plans(of asset: Asset, in db: Database) throws(CatalogError) -> RedactionPlans {
        let s = try db.statement("SELECT kind, plan FROM asset_plans WHERE kind IN (0, 1, 2) AND path = ?1 AND id = ?2")
        defer { s.reset() }
        try s.bind(1, asset.path.bytes)
        try s.bind(2, asset.id.rawValue)
        var plans = RedactionPlans.notPlanned
        let id = asset.id.rawValue
        while try s.step() {
            switch Kind(rawValue: s.int64(0)) {
            case .strip: plans.strip = try plan(s, 1, id, kind: .strip)
            case .coarse: plans.coarse = try plan(s, 1, id, kind: .coarse)
            case .privatePlans: plans.privatePlans = try privatePlans(s, 1, id)
            case nil: continue
            }
        }
        return plans
    }

    /// The encoded identity plan, the commonest BLOB: decoded without work.
    private static let identityBlob = RedactionPlan.identity.encoded()

    /// Decodes the location plan in `column`.
    static func plan(_ s: Statement, _ column: Int32, _ id: String, kind: Kind) throws(CatalogError) -> RedactionPlan {
        if s.withBlobBytes(column, { $0.elementsEqual(identityBlob) }) { return .identity }
        let bytes = s.blob(column)
        do {
            return try RedactionPlan(encoded: bytes)
        } catch {
            throw .badStoredValue(column: "asset_plans.plan", detail: "undecodable \(kind.name) plan for \(id): \(error)")
        }
    }

    /// Checks and keeps the private plans in `column` (empty: not planned).
    static func privatePlans(_ s: Statement, _ column: Int32, _ id: String) throws(CatalogError) -> PrivatePlans {
        do {
            return s.isNull(column) ? .notPlanned : try PrivatePlans(encoded: s.blob(column))
        } catch {
            throw .badStoredValue(column: "asset_plans.plan", detail: "undecodable private plans for \(id): \(error)")
        }
    }
}
