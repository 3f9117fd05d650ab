import MediaFormats
import PhotoCore
import Synchronization

/// Reads the redaction plan a file is served with from the catalog, for the read path
/// (`RedactionPlanSource`): the views keep no plans, so a read of a redacted view fetches
/// its plan here (once per file and version, see `ViewLayer`'s plan cache), with the plans
/// of the files after it in its folder when the cache reads ahead.
///
/// It has a read-only connection of its own, opened on first use: FUSE threads then never
/// wait for the catalog's writer connection, which an index run holds for whole batches
/// (WAL mode lets a reader go on beside a writer). One range read of the plan column's
/// covering index (`Schema.planIndexesStep`) per fetch.
public final class StoredPlans: RedactionPlanSource {
    private let path: String
    private let connection = Mutex<Database?>(nil)

    /// Plans of the catalog file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Opens the connection now rather than at the first read of a redacted file: a daemon
    /// then holds the same descriptors from its start (a leak check sees no growth) and the
    /// first read does not wait for the open. A failure is left for that read to report.
    public func prepare() {
        connection.withLock { (db: inout Database?) in
            if db == nil { db = try? Self.open(path) }
        }
    }

    public func plan(of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError) -> ServedPlan {
        try plans(from: asset, ahead: 0, location: location, metadata: metadata).plan
    }

    public func plans(from asset: Asset, ahead: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlanBatch
    {
        let found: PlanBatch?
        do throws(CatalogError) {
            found = try connection.withLock { (db: inout Database?) throws(CatalogError) -> PlanBatch? in
                let open: Database
                if let db {
                    open = db
                } else {
                    open = try Self.open(path)
                }
                db = open
                return try Self.read(from: asset, ahead: max(0, ahead), location: location, metadata: metadata, in: open)
            }
        } catch {
            throw .planUnavailable("read the redaction plan of \(asset.id.rawValue) from the catalog: \(error)")
        }
        guard let found else { throw .stale }
        return found
    }

    /// The read-only connection (immutable when not even SQLite's shared memory can be made).
    private static func open(_ path: String) throws(CatalogError) -> Database {
        do throws(CatalogError) {
            return try Database(path: path, readOnly: .readOnly)
        } catch {
            return try Database(path: path, readOnly: .immutable)
        }
    }

    /// The plan of `asset` and of up to `ahead` rows after its path; nil when the catalog
    /// holds no row of that version of its file at its path (another version, re-indexed
    /// since the views were built, or gone).
    private static func read(from asset: Asset, ahead: Int, location: LocationPolicy, metadata: MetadataPolicy, in db: Database)
        throws(CatalogError) -> PlanBatch?
    {
        let s = try db.statement(query(location: location, metadata: metadata))
        defer { s.reset() }
        try s.bind(1, asset.path.bytes)
        // One more row than read ahead: the asset after the last one, for `PlanBatch.next`.
        try s.bind(2, ahead + 2)
        // The plan would not fit the bytes the views promise unless the row is this version.
        guard try s.step(), s.withTextBytes(0, { $0.elementsEqual(asset.id.rawValue.utf8) }), s.int64(1) == asset.size,
            s.int64(2) == asset.mtimeNanoseconds, UInt64(bitPattern: s.int64(3)) == asset.inode, s.int64(4) == asset.ctimeNanoseconds
        else { return nil }
        var batch = PlanBatch(plan: try plan(s, metadata: metadata, id: asset.id.rawValue))
        while try s.step() {
            guard let assetID = s.withTextBytes(0, { AssetID(utf8: $0) }) else { continue }
            guard batch.following.count < ahead else {
                batch.next = assetID
                break
            }
            // A plan that does not decode is left for its own read to refuse.
            guard let plan = try? plan(s, metadata: metadata, id: assetID.rawValue) else { continue }
            batch.following.append(
                VersionedPlan(
                    id: assetID, size: s.int64(1), mtimeNanoseconds: s.int64(2), inode: UInt64(bitPattern: s.int64(3)),
                    ctimeNanoseconds: s.int64(4), plan: plan))
        }
        return batch
    }

    /// The fetch of a plan and the plans after it for a view with these policies: from
    /// path `?1` on, `?2` rows of id, size, mtime, inode, ctime and plan.
    static func query(location: LocationPolicy, metadata: MetadataPolicy) -> String {
        switch (metadata, location) {
        case (.private, _): privateQuery
        case (.keep, .coarse): coarseQuery
        case (.keep, _): stripQuery
        }
    }

    private static let stripQuery = query(column: "redaction_strip", index: "assets_plan_strip")
    private static let coarseQuery = query(column: "redaction_coarse", index: "assets_plan_coarse")
    private static let privateQuery = query(column: "private_plans", index: "assets_plan_private")

    /// The covering index is named: SQLite's planner would read `assets` itself, whose
    /// oversized cells make each lookup an order slower.
    private static func query(column: String, index: String) -> String {
        "SELECT id, size, mtime_ns, inode, ctime_ns, \(column) FROM assets INDEXED BY \(index) WHERE path >= ?1 ORDER BY path LIMIT ?2"
    }

    /// The plan in column 5 of the current row.
    private static func plan(_ s: Statement, metadata: MetadataPolicy, id: String) throws(CatalogError) -> ServedPlan {
        if metadata == .private { return .privatePlans(try AssetRows.privatePlans(s, 5, id)) }
        return .location(try AssetRows.plan(s, 5, id))
    }
}
