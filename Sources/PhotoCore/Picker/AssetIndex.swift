import Synchronization

/// The catalogued assets, findable by id and by library path, for resolving picker targets.
///
/// It holds positions into the snapshot's own asset array, not copies of the assets: a
/// library of 100,000 assets would otherwise keep each one three more times (a table of
/// whole assets alone is ~90 MB). Nothing is left for the first picker write after a mount
/// to build (at a million assets that took about a second): the daemon's index takes the
/// views' own table of positions by id (`init(sharingIDsOf:)`), builds the path table and
/// the capture-date order once the mount answers (`prepare`), and a library change patches
/// the tables (`patched(to:change:)`) instead of dropping them. Elsewhere (the CLI, tests)
/// each is built on first use. The tables are open-addressing tables of positions that
/// compare keys in the assets themselves (four bytes a slot): two dictionaries keyed by id
/// and by path copied every key and took several times the memory.
public struct AssetIndex: Sendable {
    private let assets: ChunkedArray<Asset>
    private let byID: LazyTable<AssetID>
    private let byPath: LazyTable<LibraryPath>
    private let dateOrder: DateOrder
    private let identifiers: @Sendable () -> [AssetID: String]
    private let lazyGroups: LazyGroups

    public init(_ assets: [Asset]) { self.init(ChunkedArray(assets)) }

    /// An index of `assets`; `identifiers` gives each asset's Apple content identifier
    /// (read from the catalog when a picker write first asks for groups, so a mount start
    /// or a library change pays nothing for them).
    public init(_ assets: ChunkedArray<Asset>, identifiers: (@Sendable () -> [AssetID: String])? = nil) {
        self.init(assets, byID: LazyTable(), byPath: LazyTable(), identifiers: identifiers ?? { [:] })
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

    /// The index of `tree`'s assets, taking its table of positions by id rather than
    /// building one (the views need the same table, and building it again beside them cost
    /// a second of a mount of a million assets); built on first use as usual when an id
    /// is held twice (the views keep the first by path, the index the last).
    public init(sharingIDsOf tree: ViewTree, identifiers: (@Sendable () -> [AssetID: String])? = nil) {
        let assets = tree.snapshot.assets
        let ids = tree.firstByID
        let byID = ids.count == assets.count ? LazyTable<AssetID>(built: ids.nodeTable, key: ids.key) : LazyTable<AssetID>()
        self.init(assets, byID: byID, byPath: LazyTable(), identifiers: identifiers ?? { [:] })
    }

    private init(
        _ assets: ChunkedArray<Asset>, byID: LazyTable<AssetID>, byPath: LazyTable<LibraryPath>,
        identifiers: @escaping @Sendable () -> [AssetID: String]
    ) {
        self.assets = assets
        self.byID = byID
        self.byPath = byPath
        self.dateOrder = DateOrder()
        self.identifiers = identifiers
        self.lazyGroups = LazyGroups(identifiers: identifiers)
    }

    /// Builds what lookups need now, once: the groups a `select` takes along (first: every
    /// select asks for them), the id and path tables, and with `dateOrder` the capture-date
    /// order too. Safe from any thread; a lookup meanwhile waits for its table.
    public func prepare(dateOrder withDateOrder: Bool = false) {
        _ = groups
        _ = byID.of(assets, key: \.id)
        _ = byPath.of(assets, key: \.path)
        if withDateOrder { _ = inDateOrder.count }
    }

    /// Settles the groups now when the assets can hold none (no content identifier, no raw
    /// file: a pass over a byte an asset, a few milliseconds at a million), so that no
    /// select waits for their derivation; true when they are known. A library with groups
    /// leaves them to `prepare` or the first select that asks.
    /// With `knownWithoutIdentifiers` the caller has just seen that no asset has a content
    /// identifier, and the identifiers are not read (the catalog may be busy writing).
    @discardableResult
    public func settleGroupsIfNone(knownWithoutIdentifiers: Bool = false) -> Bool {
        guard !groupsIgnored else { return true }
        return lazyGroups.deriveIfNone(assets, knownWithoutIdentifiers: knownWithoutIdentifiers)
    }

    /// Whether the id table is built: a lookup by id costs no table build.
    public var isPrepared: Bool { byID.isBuilt }

    /// Whether the path table is built as well.
    public var isPreparedByPath: Bool { byPath.isBuilt }

    /// The index of `assets`, which are this index's assets after `change` (positions as
    /// `LibrarySnapshot.assets(replacing:with:)` gives them): each of this index's tables
    /// that is built starts the new index patched for the change (O(the change), sharing
    /// the untouched parts), so a select after a library change does not build it again.
    /// A table not built, or one where a key turns out to be held twice (never in a
    /// catalog's snapshot, whose ids and paths are unique), is built on first use.
    public func patched(to assets: ChunkedArray<Asset>, change: LibraryChange) -> AssetIndex {
        AssetIndex(
            assets, byID: byID.patched(from: self.assets, to: assets, change: change, key: \.id),
            byPath: byPath.patched(from: self.assets, to: assets, change: change, key: \.path), identifiers: identifiers)
    }

    /// Every asset in capture-date order (then path, then id): the order `select --where` uses.
    public var inDateOrder: LazyMapCollection<[Int32], Asset> {
        let assets = self.assets
        let byID = self.byID
        return dateOrder.positions(of: assets) { byID.of(assets, key: \.id).table.positions }.lazy.map { assets[Int($0)] }
    }

    /// The asset with this id, if catalogued.
    public subscript(id: AssetID) -> Asset? {
        let assets = self.assets
        let found = byID.of(assets, key: \.id).table.find(hash: id.tableHash(byID.key)) { assets[Int($0)].id == id }
        return found.map { assets[Int($0)] }
    }

    /// The asset at this library-relative path, if catalogued.
    public func asset(at path: LibraryPath) -> Asset? {
        let assets = self.assets
        let found = byPath.of(assets, key: \.path).table.find(hash: path.tableHash(byPath.key)) { assets[Int($0)].path == path }
        guard let found else { return nil }
        return self[assets[Int(found)].id]
    }

    public var count: Int { byID.of(assets, key: \.id).table.count }
}

/// How the keys of the index's tables are hashed (the id table shared with the views'
/// `AssetPositions` must hash as they do).
/// A key the index has a table for, hashed under the table's key.
protocol IndexKey: Equatable, Sendable {
    func tableHash(_ key: IDHashKey) -> Int
}

extension AssetID: IndexKey {
    /// Under the table's key, as `AssetPositions` hashes (the id table may be the views').
    @inline(__always)
    func tableHash(_ key: IDHashKey) -> Int { key.hash(self) }
}

extension LibraryPath: IndexKey {
    /// With `Hasher` (seeded per process): path tables are never kept on disk.
    func tableHash(_ key: IDHashKey) -> Int {
        var hasher = Hasher()
        withBytes { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}

/// One table of an index (per key, the position of the last asset with that key), built
/// once when first asked for, or handed over built (from the views, or patched from the
/// index before a library change).
private final class LazyTable<Key: IndexKey>: Sendable {
    struct Built: Sendable {
        var table: NodeTable
        /// Whether no key was met twice (as in every catalog's snapshot): only then does
        /// removing a position leave no other asset of its key unheld.
        var unique: Bool
    }

    private let built: Mutex<Built?>
    /// The key the table's keys are hashed under.
    let key: IDHashKey

    init() {
        built = Mutex(nil)
        key = .random()
    }

    /// A table built elsewhere over assets whose keys are unique, hashed under `key`.
    init(built table: NodeTable, key: IDHashKey) {
        built = Mutex(Built(table: table, unique: true))
        self.key = key
    }

    private init(patched: Built?, key: IDHashKey) {
        built = Mutex(patched)
        self.key = key
    }

    var isBuilt: Bool { built.withLock { $0 != nil } }

    func of(_ assets: ChunkedArray<Asset>, key: KeyPath<Asset, Key>) -> Built {
        built.withLock { cached in
            if let cached { return cached }
            var made = Built(table: NodeTable(capacity: assets.count), unique: true)
            // From the end, keeping the first position met: the last asset of a key wins.
            for position in stride(from: assets.count - 1, through: 0, by: -1) {
                let value = assets[position][keyPath: key]
                let hash = value.tableHash(self.key)
                if made.table.find(hash: hash, { assets[Int($0)][keyPath: key] == value }) == nil {
                    made.table.insert(Int32(truncatingIfNeeded: position), hash: hash)
                } else {
                    made.unique = false
                }
            }
            cached = made
            return made
        }
    }

    /// This table (over `old`) moved to `new`, the assets after `change`: a table built on
    /// first use when this one is not built or a key is held twice on either side.
    func patched(from old: ChunkedArray<Asset>, to new: ChunkedArray<Asset>, change: LibraryChange, key keyPath: KeyPath<Asset, Key>)
        -> LazyTable
    {
        guard let current = built.withLock({ $0 }), current.unique else { return LazyTable() }
        var table = current.table
        let key = self.key
        // Out first, hashed over the old assets: every position still held is then an
        // unchanged asset at the same place in both, so the new assets hash the rest.
        for position in change.removed + change.moved.map(\.from) {
            let value = old[Int(position)][keyPath: keyPath]
            let hash = value.tableHash(key)
            guard table.find(hash: hash, { old[Int($0)][keyPath: keyPath] == value }) == position else { return LazyTable() }
            table.remove(position, hash: hash) { old[Int($0)][keyPath: keyPath].tableHash(key) }
        }
        for position in change.added + change.moved.map(\.to) {
            let value = new[Int(position)][keyPath: keyPath]
            let hash = value.tableHash(key)
            guard table.find(hash: hash, { new[Int($0)][keyPath: keyPath] == value }) == nil else { return LazyTable() }
            if table.isFull { table.grow { new[Int($0)][keyPath: keyPath].tableHash(key) } }
            table.insert(position, hash: hash)
        }
        return LazyTable(patched: Built(table: table, unique: true), key: key)
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
            let groups = AssetGroups.of(assets, identifiers: identifiers())
            cached = groups
            return groups
        }
    }

    /// Caches `.none` when the assets can hold no group (no identifier, no raw file): a
    /// pass over a byte an asset. True when the groups are known now.
    func deriveIfNone(_ assets: ChunkedArray<Asset>, knownWithoutIdentifiers: Bool) -> Bool {
        built.withLock { cached in
            if cached != nil { return true }
            guard !AssetGroups.holdsRaw(assets), knownWithoutIdentifiers || identifiers().isEmpty else { return false }
            cached = AssetGroups.none
            return true
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
