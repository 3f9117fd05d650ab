/// The catalogued assets, findable by id and by library path, for resolving picker targets.
///
/// Build it once per snapshot; lookups are dictionary reads.
public struct AssetIndex: Sendable {
    private let byID: [AssetID: Asset]
    private let byPath: [LibraryPath: AssetID]
    /// Every asset in capture-date order (then path, then id): the order `select --where` uses.
    public let inDateOrder: [Asset]

    public init(_ assets: [Asset]) {
        var byID: [AssetID: Asset] = [:]
        var byPath: [LibraryPath: AssetID] = [:]
        for asset in assets {
            byID[asset.id] = asset
            byPath[asset.path] = asset.id
        }
        self.byID = byID
        self.byPath = byPath
        // Sort small keys, not assets: effectiveDate may convert an mtime (too costly per
        // comparison) and moving whole assets around is slow.
        let all = Array(byID.values)
        let keys = all.map(\.effectiveDate.sortKey)
        let paths = all.map(\.path)
        let order = all.indices.sorted { a, b in
            if keys[a] != keys[b] { return keys[a] < keys[b] }
            if paths[a] != paths[b] { return paths[a] < paths[b] }
            return all[a].id < all[b].id
        }
        inDateOrder = order.map { all[$0] }
    }

    /// The asset with this id, if catalogued.
    public subscript(id: AssetID) -> Asset? { byID[id] }

    /// The asset at this library-relative path, if catalogued.
    public func asset(at path: LibraryPath) -> Asset? { byPath[path].flatMap { byID[$0] } }

    public var count: Int { byID.count }
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
