import MediaFormats
import PhotoCore

/// The apps and grants as stored, kept in memory next to the connection so that a new
/// access state is diffed against it instead of reading every grant back.
///
/// `position` orders an app's grants; positions need not be contiguous, so appending,
/// deselecting or reordering rewrites only the rows whose relative order changed.
struct AccessMirror: Sendable {
    struct StoredGrant: Hashable, Sendable {
        var grant: Grant
        var position: Int64
    }

    var apps: [String: App] = [:]
    var grants: [String: [StoredGrant]] = [:]
    /// `grants` without positions: the arrays `grantLists` hands out and the last write was
    /// given, so that an app a write did not touch is recognised by identity, not by
    /// comparing its grants one by one.
    var lists: [String: [Grant]] = [:]
    /// SQLite's `data_version` when this was read: it changes when another connection
    /// commits, which makes the mirror stale.
    var dataVersion: Int64 = 0

    /// Reads the whole access state.
    static func load(from db: Database) throws(CatalogError) -> AccessMirror {
        var mirror = AccessMirror()
        mirror.dataVersion = try db.scalarInt("PRAGMA data_version") ?? 0
        let a = try db.statement("SELECT name, filter, location, selection_limit, uid, representation, quality, metadata FROM apps")
        defer { a.reset() }
        while try a.step() {
            let name = a.text(0)
            let policyText = a.text(2)
            guard let policy = LocationPolicy(rawValue: policyText) else {
                throw .badStoredValue(column: "apps.location", detail: "unknown policy \(policyText) for \(name)")
            }
            let uid = a.optionalInt64(4).flatMap { UInt32(exactly: $0) }
            let representationText = a.text(5)
            guard let representation = Representation(rawValue: representationText) else {
                throw .badStoredValue(column: "apps.representation", detail: "unknown representation \(representationText) for \(name)")
            }
            let quality = a.int(6)
            guard (1...100).contains(quality) else {
                throw .badStoredValue(column: "apps.quality", detail: "quality \(quality) is not 1-100 for \(name)")
            }
            let metadataText = a.text(7)
            guard let metadata = MetadataPolicy(rawValue: metadataText) else {
                throw .badStoredValue(column: "apps.metadata", detail: "unknown policy \(metadataText) for \(name)")
            }
            mirror.apps[name] = App(
                name: name, filter: a.text(1), locationPolicy: policy, selectionLimit: a.int(3), uid: uid, representation: representation,
                quality: quality, metadataPolicy: metadata)
        }
        let g = try db.statement(
            "SELECT app, asset_id, position, granted_at_ns, expires_at_ns, once_owner FROM grants ORDER BY app, position")
        defer { g.reset() }
        while try g.step() {
            let idText = g.text(1)
            guard let id = AssetID(idText) else { throw .badStoredValue(column: "grants.asset_id", detail: "not an asset id: \(idText)") }
            let terms = try Self.terms(expiresAt: g.optionalInt64(4), once: g.optionalText(5), column: "grants.once_owner")
            mirror.grants[g.text(0), default: []].append(
                StoredGrant(grant: Grant(asset: id, grantedAtNanoseconds: g.int64(3), terms: terms), position: g.int64(2)))
        }
        try mirror.loadGrantTerms(from: db)
        mirror.lists = mirror.grants.mapValues { $0.map(\.grant) }
        return mirror
    }

    /// Re-reads everything when another connection has committed since the last read.
    mutating func refreshIfChanged(from db: Database) throws(CatalogError) {
        let now = try db.scalarInt("PRAGMA data_version") ?? 0
        if now != dataVersion { self = try Self.load(from: db) }
    }

    /// Each app's grants in selection order.
    func grantLists() -> [String: [Grant]] { lists }

    /// Writes the difference between this state and (`newApps`, `newGrants`) and returns
    /// the mirror of the new state. Runs inside the caller's transaction.
    func write(apps newApps: [String: App], grants newGrants: [String: [Grant]], to db: Database) throws(CatalogError) -> AccessMirror {
        // Duplicates within one list are found by `writeGrants` (cheaply, past the
        // unchanged prefix), which throws and so rolls the transaction back.
        for (app, list) in newGrants where newApps[app] == nil && !list.isEmpty {
            throw .grantsForUnknownApp(app)
        }
        var next = AccessMirror(apps: newApps, grants: [:], dataVersion: dataVersion)

        // Removing an app removes its grants (ON DELETE CASCADE).
        for name in apps.keys where newApps[name] == nil {
            let s = try db.statement("DELETE FROM apps WHERE name = ?1")
            try s.bind(1, name)
            try s.run()
        }
        for (name, app) in newApps where apps[name] != app {
            let s = try db.statement(
                """
                INSERT INTO apps(name, filter, location, selection_limit, uid, representation, quality, metadata)
                VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)
                ON CONFLICT(name) DO UPDATE SET filter = excluded.filter, location = excluded.location,
                selection_limit = excluded.selection_limit, uid = excluded.uid, representation = excluded.representation,
                quality = excluded.quality, metadata = excluded.metadata
                """)
            try s.bind(1, name)
            try s.bind(2, app.filter)
            try s.bind(3, app.locationPolicy.rawValue)
            try s.bind(4, app.selectionLimit)
            try s.bind(5, app.uid.map { Int64($0) })
            try s.bind(6, app.representation.rawValue)
            try s.bind(7, app.quality)
            try s.bind(8, app.metadataPolicy.rawValue)
            try s.run()
            try Self.writeGrantTerms(of: app, replacing: apps[name], to: db)
        }

        for name in newApps.keys {
            let old = apps[name] == nil ? [] : grants[name] ?? []
            let new = newGrants[name] ?? []
            next.lists[name] = new
            if apps[name] != nil, new == lists[name] ?? [] {
                next.grants[name] = old
                continue
            }
            next.grants[name] = try Self.writeGrants(app: name, old: old, new: new, to: db)
        }
        next.grants = next.grants.filter { !$0.value.isEmpty }
        next.lists = next.lists.filter { !$0.value.isEmpty }
        return next
    }

    /// Writes one app's grant changes: deletes what left, inserts what came, and moves
    /// only the grants whose old position no longer fits the new order. The common prefix
    /// of the old and new lists is skipped first, so appending to a long selection (the
    /// picker's commonest write) costs a comparison, not a rebuild.
    private static func writeGrants(app: String, old: [StoredGrant], new: [Grant], to db: Database) throws(CatalogError) -> [StoredGrant] {
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix].grant == new[prefix] { prefix += 1 }
        // The apps a write did not touch (all but one, usually): keep their stored list
        // rather than copy every grant of it.
        if prefix == old.count && prefix == new.count { return old }
        let oldRest = old[prefix...]
        let newRest = new[prefix...]
        var oldByAsset: [AssetID: StoredGrant] = [:]
        for stored in oldRest { oldByAsset[stored.grant.asset] = stored }
        var kept = Set<AssetID>()
        kept.reserveCapacity(newRest.count)
        for grant in newRest where !kept.insert(grant.asset).inserted {
            throw .duplicateGrant(app: app, asset: grant.asset.rawValue)
        }
        for stored in oldRest where !kept.contains(stored.grant.asset) {
            let s = try db.statement("DELETE FROM grants WHERE app = ?1 AND asset_id = ?2")
            try s.bind(1, app)
            try s.bind(2, stored.grant.asset.rawValue)
            try s.run()
        }
        var result = Array(old[..<prefix])
        result.reserveCapacity(new.count)
        var previous = prefix > 0 ? old[prefix - 1].position : Int64.min
        for grant in newRest {
            if let stored = oldByAsset[grant.asset], stored.position > previous {
                if stored.grant != grant {
                    try upsert(app: app, grant: grant, position: stored.position, in: db)
                }
                result.append(StoredGrant(grant: grant, position: stored.position))
                previous = stored.position
            } else {
                let position = previous == Int64.min ? 0 : previous &+ 1
                if oldByAsset[grant.asset] == nil {
                    // Not in the old suffix: a plain insert, which the primary key refuses
                    // when the asset is already in the unchanged prefix (a duplicate).
                    try insert(app: app, grant: grant, position: position, in: db)
                } else {
                    try upsert(app: app, grant: grant, position: position, in: db)
                }
                result.append(StoredGrant(grant: grant, position: position))
                previous = position
            }
        }
        return result
    }

    private static func insert(app: String, grant: Grant, position: Int64, in db: Database) throws(CatalogError) {
        let s = try grantStatement(
            "INSERT INTO grants(app, asset_id, position, granted_at_ns, expires_at_ns, once_owner) VALUES(?1, ?2, ?3, ?4, ?5, ?6)",
            app: app, grant: grant, position: position, in: db)
        do {
            try s.run()
        } catch {
            // SQLITE_CONSTRAINT_PRIMARYKEY: the app already has this asset.
            if case .sqlite(let code, _) = error, code == 1555 { throw .duplicateGrant(app: app, asset: grant.asset.rawValue) }
            throw error
        }
    }

    private static func upsert(app: String, grant: Grant, position: Int64, in db: Database) throws(CatalogError) {
        try grantStatement(
            """
            INSERT INTO grants(app, asset_id, position, granted_at_ns, expires_at_ns, once_owner) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
            ON CONFLICT(app, asset_id) DO UPDATE SET position = excluded.position, granted_at_ns = excluded.granted_at_ns,
            expires_at_ns = excluded.expires_at_ns, once_owner = excluded.once_owner
            """,
            app: app, grant: grant, position: position, in: db
        ).run()
    }

    /// `sql`, a write of one `grants` row, with the row's six values bound in column order.
    private static func grantStatement(_ sql: String, app: String, grant: Grant, position: Int64, in db: Database)
        throws(CatalogError) -> Statement
    {
        let s = try db.statement(sql)
        try s.bind(1, app)
        try s.bind(2, grant.asset.rawValue)
        try s.bind(3, position)
        try s.bind(4, grant.grantedAtNanoseconds)
        try s.bind(5, grant.terms.expiresAtNanoseconds)
        try s.bind(6, grant.terms.once?.description)
        return s
    }
}
