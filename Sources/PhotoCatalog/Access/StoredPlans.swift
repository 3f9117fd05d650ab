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
/// (WAL mode lets a reader go on beside a writer). One range read of the view's plan kind
/// in `asset_plans` (`Schema.planTableStep`) per fetch.
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
        let found = try withConnection(asset.id) { (db: Database) throws(CatalogError) -> PlanBatch? in
            try Self.read(from: asset, ahead: max(0, ahead), location: location, metadata: metadata, in: db)
        }
        guard let found else { throw .stale }
        return found
    }

    public func plans(at cursor: PlanCursor, count: Int, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError)
        -> PlansAhead
    {
        try withConnection(cursor.id) { (db: Database) throws(CatalogError) -> PlansAhead in
            let s = try db.statement(Self.query(location: location, metadata: metadata))
            defer { s.reset() }
            try s.bind(1, cursor.path.bytes)
            try s.bind(2, max(0, count) + 1)
            var ahead = PlansAhead()
            try Self.readAhead(s, count: max(0, count), location: location, metadata: metadata, into: &ahead)
            return ahead
        }
    }

    /// Runs `body` on the connection (opened if it is not yet); a catalog error is the
    /// read's `.planUnavailable`.
    private func withConnection<T: Sendable>(_ id: AssetID, _ body: (Database) throws(CatalogError) -> T) throws(ViewLayerError) -> T {
        do throws(CatalogError) {
            return try connection.withLock { (db: inout Database?) throws(CatalogError) -> T in
                let open: Database
                if let db {
                    open = db
                } else {
                    open = try Self.open(path)
                }
                db = open
                return try body(open)
            }
        } catch {
            throw .planUnavailable("read the redaction plan of \(id.rawValue) from the catalog: \(error)")
        }
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
        // One more row than read ahead: the asset after the last one, for `PlansAhead.next`.
        try s.bind(2, ahead + 2)
        // The plan would not fit the bytes the views promise unless the row is this version.
        guard try s.step(), s.withTextBytes(0, { $0.elementsEqual(asset.id.rawValue.utf8) }), s.int64(1) == asset.size,
            s.int64(2) == asset.mtimeNanoseconds, UInt64(bitPattern: s.int64(3)) == asset.inode, s.int64(4) == asset.ctimeNanoseconds
        else { return nil }
        var batch = PlanBatch(plan: try plan(s, location: location, metadata: metadata, id: asset.id.rawValue))
        try readAhead(s, count: ahead, location: location, metadata: metadata, into: &batch.ahead)
        return batch
    }

    /// Reads the rows left in `s` into `ahead`: up to `count` plans, then the next cursor.
    private static func readAhead(
        _ s: Statement, count: Int, location: LocationPolicy, metadata: MetadataPolicy, into ahead: inout PlansAhead
    ) throws(CatalogError) {
        while try s.step() {
            guard let id = s.withTextBytes(0, { AssetID(utf8: $0) }) else { continue }
            guard ahead.plans.count < count else {
                ahead.next = PlanCursor(id: id, path: LibraryPath(bytes: s.blob(6)))
                return
            }
            // A plan that does not decode is left for its own read to refuse.
            guard let plan = try? plan(s, location: location, metadata: metadata, id: id.rawValue) else { continue }
            ahead.plans.append(
                VersionedPlan(
                    version: FileVersion(
                        id: id, size: s.int64(1), mtimeNanoseconds: s.int64(2), inode: UInt64(bitPattern: s.int64(3)),
                        ctimeNanoseconds: s.int64(4)),
                    plan: plan))
        }
    }

    /// The fetch of a plan and the plans after it for a view with these policies: from
    /// path `?1` on, `?2` rows of id, size, mtime, inode, ctime, plan and path, of the
    /// view's plan kind (a constant, so that the search is on the primary key's range).
    static func query(location: LocationPolicy, metadata: MetadataPolicy) -> String {
        switch PlanRows.Kind(location: location, metadata: metadata) {
        case .strip: stripQuery
        case .coarse: coarseQuery
        case .privatePlans: privateQuery
        }
    }

    private static let stripQuery = query(.strip)
    private static let coarseQuery = query(.coarse)
    private static let privateQuery = query(.privatePlans)

    private static func query(_ kind: PlanRows.Kind) -> String {
        "SELECT id, size, mtime_ns, inode, ctime_ns, plan, path FROM asset_plans WHERE kind = \(kind.rawValue) AND path >= ?1 ORDER BY path LIMIT ?2"
    }

    /// The plan in column 5 of the current row.
    private static func plan(_ s: Statement, location: LocationPolicy, metadata: MetadataPolicy, id: String) throws(CatalogError)
        -> ServedPlan
    {
        let kind = PlanRows.Kind(location: location, metadata: metadata)
        if kind == .privatePlans { return .privatePlans(try PlanRows.privatePlans(s, 5, id)) }
        return .location(try PlanRows.plan(s, 5, id, kind: kind))
    }
}
