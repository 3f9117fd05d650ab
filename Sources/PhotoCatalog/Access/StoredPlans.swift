import MediaFormats
import PhotoCore
import Synchronization

/// Reads the redaction plan a file is served with from the catalog's `assets` row, for the
/// read path (`RedactionPlanSource`): the views keep no plans, so a read of a redacted view
/// fetches its plan here (once per file and version, see `ViewLayer`'s plan cache).
///
/// It has a read-only connection of its own, opened on first use: FUSE threads then never
/// wait for the catalog's writer connection, which an index run holds for whole batches
/// (WAL mode lets a reader go on beside a writer). One lookup by primary key per fetch.
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
        let found: ServedPlan?
        do throws(CatalogError) {
            found = try connection.withLock { (db: inout Database?) throws(CatalogError) -> ServedPlan? in
                let open: Database
                if let db {
                    open = db
                } else {
                    open = try Self.open(path)
                }
                db = open
                return try Self.read(asset, location: location, metadata: metadata, in: open)
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

    /// The plan in the row of `asset`; nil when the row holds another version of its file
    /// or is gone.
    private static func read(_ asset: Asset, location: LocationPolicy, metadata: MetadataPolicy, in db: Database) throws(CatalogError)
        -> ServedPlan?
    {
        let column =
            switch (metadata, location) {
            case (.private, _): "private_plans"
            case (.keep, .coarse): "redaction_coarse"
            case (.keep, _): "redaction_strip"
            }
        let s = try db.statement("SELECT size, mtime_ns, inode, ctime_ns, \(column) FROM assets WHERE id = ?1")
        defer { s.reset() }
        try s.bind(1, asset.id.rawValue)
        // No row, or a row of another version (re-indexed since the views were built): the
        // plan would not fit the bytes the views promise.
        guard try s.step(), s.int64(0) == asset.size, s.int64(1) == asset.mtimeNanoseconds,
            UInt64(bitPattern: s.int64(2)) == asset.inode, s.int64(3) == asset.ctimeNanoseconds
        else { return nil }
        if metadata == .private { return .privatePlans(try AssetRows.privatePlans(s, 4, asset.id.rawValue)) }
        return .location(try AssetRows.plan(s, 4, asset.id.rawValue))
    }
}
