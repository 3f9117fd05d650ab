import Synchronization

/// The catalogued assets, findable by id and by library path, for resolving picker targets.
///
/// It holds positions into the snapshot's own asset array, not copies of the assets: a
/// library of 100,000 assets would otherwise keep each one three more times (a table of
/// whole assets alone is ~90 MB). The id and path tables are built on the first lookup
/// unless `prepare` built them before (the daemon does, beside the views, so that the first
/// picker write after a mount of a million assets does not pay about a second for them),
/// and a library change patches them (`patched(to:change:)`) instead of building them
/// again; the capture-date order on the first `select --where` or rule app, or in
/// `prepare`. The tables are open-addressing tables of positions that compare keys in the
/// assets themselves (four bytes a slot): two dictionaries keyed by id and by path copied
/// every key and took several times the memory.
public struct AssetIndex: Sendable {
    private let assets: ChunkedArray<Asset>
    private let tables: LazyTables
    private let dateOrder: DateOrder

    public init(_ assets: [Asset]) { self.init(ChunkedArray(assets)) }

    public init(_ assets: ChunkedArray<Asset>) {
        self.init(assets, tables: LazyTables())
    }

    private init(_ assets: ChunkedArray<Asset>, tables: LazyTables) {
        self.assets = assets
        self.tables = tables
        self.dateOrder = DateOrder()
    }

    /// Builds what lookups need now, once: the id and path tables, and with `dateOrder` the
    /// capture-date order too. Safe from any thread; a lookup meanwhile waits for the tables.
    public func prepare(dateOrder withDateOrder: Bool = false) {
        _ = tables.of(assets)
        if withDateOrder { _ = inDateOrder.count }
    }

    /// Whether the id and path tables are built (a lookup costs no table build).
    public var isPrepared: Bool { tables.isBuilt }

    /// The index of `assets`, which are this index's assets after `change` (positions as
    /// `LibrarySnapshot.assets(replacing:with:)` gives them): when this index's tables are
    /// built, the new index starts with them patched for the change (O(the change), sharing
    /// the untouched parts), so a select after a library change does not build them again.
    /// When they are not built, or an id or path turns out to be held twice (never in a
    /// catalog's snapshot, whose ids and paths are unique), its tables are built on first use.
    public func patched(to assets: ChunkedArray<Asset>, change: LibraryChange) -> AssetIndex {
        guard let built = tables.ifBuilt, let patched = built.patched(from: self.assets, to: assets, change: change) else {
            return AssetIndex(assets)
        }
        return AssetIndex(assets, tables: LazyTables(built: patched))
    }

    /// Every asset in capture-date order (then path, then id): the order `select --where` uses.
    public var inDateOrder: LazyMapCollection<[Int32], Asset> {
        let assets = self.assets
        let tables = self.tables
        return dateOrder.positions(of: assets) { tables.of(assets).byID.positions }.lazy.map { assets[Int($0)] }
    }

    /// The asset with this id, if catalogued.
    public subscript(id: AssetID) -> Asset? {
        let assets = self.assets
        let found = tables.of(assets).byID.find(hash: LazyTables.hash(id)) { assets[Int($0)].id == id }
        return found.map { assets[Int($0)] }
    }

    /// The asset at this library-relative path, if catalogued.
    public func asset(at path: LibraryPath) -> Asset? {
        let assets = self.assets
        let found = tables.of(assets).byPath.find(hash: LazyTables.hash(path)) { assets[Int($0)].path == path }
        guard let found else { return nil }
        return self[assets[Int(found)].id]
    }

    public var count: Int { tables.of(assets).byID.count }
}

/// The id and path tables of an index, built once when first asked for (or handed over
/// patched from the index before a library change).
private final class LazyTables: Sendable {
    struct Tables: Sendable {
        /// Per id, the position of the last asset with that id (ids are unique in a catalog).
        var byID: NodeTable
        /// Per path, the position of the last asset at that path.
        var byPath: NodeTable
        /// Whether no id and no path was met twice (as in every catalog's snapshot): only
        /// then does removing a position leave no other asset of its key unheld.
        var unique = true

        /// These tables (over `old`) moved to `new`, the assets after `change`; nil when a
        /// key is held twice on either side, where "the last position wins" cannot be kept
        /// without a full build.
        func patched(from old: ChunkedArray<Asset>, to new: ChunkedArray<Asset>, change: LibraryChange) -> Tables? {
            guard unique else { return nil }
            var tables = self
            let leaving = change.removed + change.moved.map(\.from)
            let entering = change.added + change.moved.map(\.to)
            // Out first, hashed over the old assets: every position still held is then an
            // unchanged asset at the same place in both, so the new assets hash the rest.
            for position in leaving {
                let asset = old[Int(position)]
                let idHash = LazyTables.hash(asset.id)
                let pathHash = LazyTables.hash(asset.path)
                guard tables.byID.find(hash: idHash, { old[Int($0)].id == asset.id }) == position,
                    tables.byPath.find(hash: pathHash, { old[Int($0)].path == asset.path }) == position
                else { return nil }
                tables.byID.remove(position, hash: idHash) { LazyTables.hash(old[Int($0)].id) }
                tables.byPath.remove(position, hash: pathHash) { LazyTables.hash(old[Int($0)].path) }
            }
            for position in entering {
                let asset = new[Int(position)]
                let idHash = LazyTables.hash(asset.id)
                let pathHash = LazyTables.hash(asset.path)
                guard tables.byID.find(hash: idHash, { new[Int($0)].id == asset.id }) == nil,
                    tables.byPath.find(hash: pathHash, { new[Int($0)].path == asset.path }) == nil
                else { return nil }
                if tables.byID.isFull { tables.byID.grow { LazyTables.hash(new[Int($0)].id) } }
                tables.byID.insert(position, hash: idHash)
                if tables.byPath.isFull { tables.byPath.grow { LazyTables.hash(new[Int($0)].path) } }
                tables.byPath.insert(position, hash: pathHash)
            }
            return tables
        }
    }

    private let built: Mutex<Tables?>

    init(built: Tables? = nil) { self.built = Mutex(built) }

    /// The tables when built, without building them.
    var ifBuilt: Tables? { built.withLock { $0 } }

    var isBuilt: Bool { built.withLock { $0 != nil } }

    func of(_ assets: ChunkedArray<Asset>) -> Tables {
        built.withLock { cached in
            if let cached { return cached }
            var tables = Tables(byID: NodeTable(capacity: assets.count), byPath: NodeTable(capacity: assets.count))
            // From the end, keeping the first position met: the last asset of a key wins.
            for position in stride(from: assets.count - 1, through: 0, by: -1) {
                let id = assets[position].id
                let idHash = Self.hash(id)
                if tables.byID.find(hash: idHash, { assets[Int($0)].id == id }) == nil {
                    tables.byID.insert(Int32(truncatingIfNeeded: position), hash: idHash)
                } else {
                    tables.unique = false
                }
                let path = assets[position].path
                let pathHash = Self.hash(path)
                if tables.byPath.find(hash: pathHash, { assets[Int($0)].path == path }) == nil {
                    tables.byPath.insert(Int32(truncatingIfNeeded: position), hash: pathHash)
                } else {
                    tables.unique = false
                }
            }
            cached = tables
            return tables
        }
    }

    static func hash(_ id: AssetID) -> Int {
        var hasher = Hasher()
        hasher.combine(id)
        return hasher.finalize()
    }

    static func hash(_ path: LibraryPath) -> Int {
        var hasher = Hasher()
        path.withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}

/// The capture-date order of an index, computed once when first asked for.
private final class DateOrder: Sendable {
    private let sorted = Mutex<[Int32]?>(nil)

    /// `unique` gives one position per id; asked only when the order is not cached yet.
    func positions(of assets: ChunkedArray<Asset>, unique: () -> [Int32]) -> [Int32] {
        sorted.withLock { cached in
            if let cached { return cached }
            // Sort small keys, not assets: effectiveDate may convert an mtime (too costly per
            // comparison) and moving whole assets around is slow.
            let positions = unique()
            let keys = positions.map { assets[Int($0)].effectiveDate.sortKey }
            let order = positions.indices.sorted { a, b in
                if keys[a] != keys[b] { return keys[a] < keys[b] }
                let (x, y) = (assets[Int(positions[a])], assets[Int(positions[b])])
                if x.path != y.path { return x.path < y.path }
                return x.id < y.id
            }
            let result = order.map { positions[$0] }
            cached = result
            return result
        }
    }
}

/// Resolves a target written as a path inside the mount (`library/folders/Trips/a.jpg`,
/// `library/all/IMG_0001~3f9a.jpg`, `apps/editor/x.jpg`, or an absolute path under the
/// mountpoint) to an asset id. The view tree implements it; the executor asks it only after
/// a target is neither an asset id nor a library-relative path.
public protocol TargetResolving: Sendable {
    func resolve(_ target: [UInt8]) -> AssetID?
}

/// A resolver that knows no mount paths (the CLI when the library is not mounted, tests).
public struct NoMountPaths: TargetResolving {
    public init() {}
    public func resolve(_ target: [UInt8]) -> AssetID? { nil }
}
