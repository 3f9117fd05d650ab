import Synchronization

/// The catalogued assets, findable by id and by library path, for resolving picker targets.
///
/// It holds positions into the snapshot's own asset array, not copies of the assets: a
/// library of 100,000 assets would otherwise keep each one three more times (a table of
/// whole assets alone is ~90 MB). Nothing is computed until the picker first needs it: the
/// id and path tables on the first lookup (which a mount start or a library change would
/// otherwise pay although most never touch the picker), the capture-date order on the
/// first `select --where`. The tables are open-addressing tables of positions that compare
/// keys in the assets themselves (four bytes a slot): two dictionaries keyed by id and by
/// path copied every key and took several times the memory.
public struct AssetIndex: Sendable {
    private let assets: ChunkedArray<Asset>
    private let tables: LazyTables
    private let dateOrder: DateOrder
    private let lazyGroups: LazyGroups

    public init(_ assets: [Asset]) { self.init(ChunkedArray(assets)) }

    /// An index of `assets`; `identifiers` gives each asset's Apple content identifier
    /// (read from the catalog when a picker write first asks for groups, so a mount start
    /// or a library change pays nothing for them).
    public init(_ assets: ChunkedArray<Asset>, identifiers: (@Sendable () -> [AssetID: String])? = nil) {
        self.assets = assets
        self.tables = LazyTables()
        self.dateOrder = DateOrder()
        self.lazyGroups = LazyGroups(identifiers: identifiers ?? { [:] })
    }

    private var groupsIgnored = false

    /// The Live Photos and RAW+JPEG pairs among the assets, derived on first use.
    public var groups: AssetGroups {
        guard !groupsIgnored else { return .none }
        let assets = self.assets
        return lazyGroups.of(assets)
    }

    /// The same index with no groups: a `select` through it grants exactly the ids it
    /// names (a picker that already chose each member by the request's media).
    public func ignoringGroups() -> AssetIndex {
        var copy = self
        copy.groupsIgnored = true
        return copy
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

/// The id and path tables of an index, built once when first asked for.
private final class LazyTables: Sendable {
    struct Tables: Sendable {
        /// Per id, the position of the last asset with that id (ids are unique in a catalog).
        var byID: NodeTable
        /// Per path, the position of the last asset at that path.
        var byPath: NodeTable
    }

    private let built = Mutex<Tables?>(nil)

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
                }
                let path = assets[position].path
                let pathHash = Self.hash(path)
                if tables.byPath.find(hash: pathHash, { assets[Int($0)].path == path }) == nil {
                    tables.byPath.insert(Int32(truncatingIfNeeded: position), hash: pathHash)
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

/// The groups of an index, derived once when first asked for.
private final class LazyGroups: Sendable {
    private let identifiers: @Sendable () -> [AssetID: String]
    private let built = Mutex<AssetGroups?>(nil)

    init(identifiers: @escaping @Sendable () -> [AssetID: String]) { self.identifiers = identifiers }

    func of(_ assets: ChunkedArray<Asset>) -> AssetGroups {
        built.withLock { cached in
            if let cached { return cached }
            let groups = AssetGroups(assets, identifiers: identifiers())
            cached = groups
            return groups
        }
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
