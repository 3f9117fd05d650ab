/// Per asset id, the position in a snapshot's `assets` of the asset shown for it: an
/// open-addressing table of positions (four bytes a slot, in copy-on-write chunks) that
/// reads the ids from the assets themselves. A dictionary keyed by id took about 40 bytes
/// per asset and a library change copied all of it; a patch here copies a few chunks.
struct AssetPositions: Sendable {
    private var table: NodeTable

    /// A table for about `capacity` assets (it grows past that).
    init(capacity: Int) { table = NodeTable(capacity: capacity) }

    /// Every asset of `assets` held at its position: their ids must all differ.
    init(allOf assets: ChunkedArray<Asset>) {
        table = NodeTable(capacity: assets.count)
        table.insertAll(count: assets.count) { Self.hash(assets[Int($0)].id) }
    }

    /// The number of ids held.
    var count: Int { table.count }

    /// The table itself (`AssetIndex` shares it).
    var nodeTable: NodeTable { table }

    /// The position held for `id`, looked up over `assets` (the snapshot the positions are in).
    func position(of id: AssetID, in assets: ChunkedArray<Asset>) -> Int32? {
        table.find(hash: Self.hash(id)) { assets[Int($0)].id == id }
    }

    /// Holds `position` for the id of `assets[position]`, which must not be held yet.
    mutating func insert(_ position: Int32, in assets: ChunkedArray<Asset>) {
        if table.isFull { table.grow { Self.hash(assets[Int($0)].id) } }
        table.insert(position, hash: Self.hash(assets[Int(position)].id))
    }

    /// Drops `position` (held for the id of `assets[position]`); every position held must
    /// be one of `assets`.
    mutating func remove(_ position: Int32, in assets: ChunkedArray<Asset>) {
        table.remove(position, hash: Self.hash(assets[Int(position)].id)) { Self.hash(assets[Int($0)].id) }
    }

    private static func hash(_ id: AssetID) -> Int { LazyTableHash.of(id) }
}
