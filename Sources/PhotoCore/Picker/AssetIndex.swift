import Synchronization

/// The catalogued assets, findable by id and by library path, for resolving picker targets.
///
/// It holds positions into the snapshot's own asset array, not copies of the assets: a
/// library of 100,000 assets would otherwise keep each one three more times (a table of
/// whole assets alone is ~90 MB). Nothing is computed until the picker first needs it: the
/// id and path tables on the first lookup (about 70 ms and 9 MB at 100,000 assets, which
/// a mount start or a library change would otherwise pay although most never touch the
/// picker), the capture-date order on the first `select --where`.
public struct AssetIndex: Sendable {
    private let assets: ChunkedArray<Asset>
    private let tables: LazyTables
    private let dateOrder: DateOrder

    public init(_ assets: [Asset]) { self.init(ChunkedArray(assets)) }

    public init(_ assets: ChunkedArray<Asset>) {
        self.assets = assets
        self.tables = LazyTables()
        self.dateOrder = DateOrder()
    }

    /// Every asset in capture-date order (then path, then id): the order `select --where` uses.
    public var inDateOrder: LazyMapCollection<[Int32], Asset> {
        let assets = self.assets
        return dateOrder.positions(of: assets, unique: tables.of(assets).byID).lazy.map { assets[Int($0)] }
    }

    /// The asset with this id, if catalogued.
    public subscript(id: AssetID) -> Asset? { tables.of(assets).byID[id].map { assets[Int($0)] } }

    /// The asset at this library-relative path, if catalogued.
    public func asset(at path: LibraryPath) -> Asset? {
        guard let position = tables.of(assets).byPath[path] else { return nil }
        return self[assets[Int(position)].id]
    }

    public var count: Int { tables.of(assets).byID.count }
}

/// The id and path tables of an index, built once when first asked for.
private final class LazyTables: Sendable {
    struct Tables: Sendable {
        /// Per id, the position of the last asset with that id (ids are unique in a catalog).
        var byID: [AssetID: Int32] = [:]
        var byPath: [LibraryPath: Int32] = [:]
    }

    private let built = Mutex<Tables?>(nil)

    func of(_ assets: ChunkedArray<Asset>) -> Tables {
        built.withLock { cached in
            if let cached { return cached }
            var tables = Tables()
            tables.byID.reserveCapacity(assets.count)
            tables.byPath.reserveCapacity(assets.count)
            for (position, asset) in assets.enumerated() {
                tables.byID[asset.id] = Int32(truncatingIfNeeded: position)
                tables.byPath[asset.path] = Int32(truncatingIfNeeded: position)
            }
            cached = tables
            return tables
        }
    }
}

/// The capture-date order of an index, computed once when first asked for.
private final class DateOrder: Sendable {
    private let sorted = Mutex<[Int32]?>(nil)

    func positions(of assets: ChunkedArray<Asset>, unique byID: [AssetID: Int32]) -> [Int32] {
        sorted.withLock { cached in
            if let cached { return cached }
            // Sort small keys, not assets: effectiveDate may convert an mtime (too costly per
            // comparison) and moving whole assets around is slow.
            let positions = Array(byID.values)
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
