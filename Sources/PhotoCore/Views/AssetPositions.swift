/// Per asset id, the position in a snapshot's `assets` of the asset shown for it: an
/// open-addressing table of positions (four bytes a slot, in copy-on-write chunks) that
/// reads the ids from the assets themselves. A dictionary keyed by id took about 40 bytes
/// per asset and a library change copied all of it; a patch here copies a few chunks.
/// Ids are hashed under the table's own key (`IDHashKey`), so a table read back from disk
/// finds what it held.
struct AssetPositions: Sendable {
    private var table: NodeTable
    /// The key the ids are hashed under.
    let key: IDHashKey

    /// A table for about `capacity` assets (it grows past that), under a fresh key.
    init(capacity: Int, key: IDHashKey = .random()) {
        table = NodeTable(capacity: capacity)
        self.key = key
    }

    /// Every asset of `assets` held at its position: their ids must all differ.
    init(allOf assets: ChunkedArray<Asset>, key: IDHashKey = .random()) {
        table = NodeTable(capacity: assets.count)
        self.key = key
        table.insertAll(count: assets.count) { key.hash(assets[Int($0)].id) }
    }

    /// A table as it was kept (`LibraryTables`): `table` holds positions hashed under `key`.
    init(table: NodeTable, key: IDHashKey) {
        self.table = table
        self.key = key
    }

    /// The number of ids held.
    var count: Int { table.count }

    /// The table itself (`AssetIndex` shares it).
    var nodeTable: NodeTable { table }

    /// The position held for `id`, looked up over `assets` (the snapshot the positions are in).
    func position(of id: AssetID, in assets: ChunkedArray<Asset>) -> Int32? {
        table.find(hash: key.hash(id)) { assets[Int($0)].id == id }
    }

    /// Holds `position` for the id of `assets[position]`, which must not be held yet.
    mutating func insert(_ position: Int32, in assets: ChunkedArray<Asset>) {
        let key = self.key
        if table.isFull { table.grow { key.hash(assets[Int($0)].id) } }
        table.insert(position, hash: key.hash(assets[Int(position)].id))
    }

    /// Drops `position` (held for the id of `assets[position]`); every position held must
    /// be one of `assets`.
    mutating func remove(_ position: Int32, in assets: ChunkedArray<Asset>) {
        let key = self.key
        table.remove(position, hash: key.hash(assets[Int(position)].id)) { key.hash(assets[Int($0)].id) }
    }

}
