/// Which asset stands for each id in the library views: the first by path, so a duplicate
/// can't shadow another.
struct FirstByID: Sendable {
    /// Per id, the position of the asset shown for it.
    let positions: AssetPositions
    /// The positions held, in storage order.
    let shown: [Int32]
    /// The positions of assets another asset stands for.
    let hidden: Set<Int32>

    init(positions: AssetPositions, shown: [Int32], hidden: Set<Int32>) {
        self.positions = positions
        self.shown = shown
        self.hidden = hidden
    }

    init(_ assets: ChunkedArray<Asset>) {
        // Ids held twice are found first, by sorting the ids as words: every other id is
        // inserted without a lookup (each lookup reads the assets its probe passes, a cache
        // miss apiece at a million assets), and when none is (a catalog's ids are unique)
        // all of them go in at once, in the table's own order.
        var ids: [UInt64] = []
        ids.reserveCapacity(assets.count)
        for index in 0..<assets.count { ids.append(assets[index].id.number) }
        ids.sort()
        var repeated = Set<UInt64>()
        for index in ids.indices.dropFirst() where ids[index] == ids[index - 1] { repeated.insert(ids[index]) }
        ids = []
        guard !repeated.isEmpty else {
            positions = AssetPositions(allOf: assets)
            hidden = []
            shown = (0..<assets.count).map { Int32($0) }
            return
        }
        var positions = AssetPositions(capacity: assets.count)
        var hidden = Set<Int32>()
        for index in 0..<assets.count {
            let position = Int32(index)
            guard repeated.contains(assets[index].id.number),
                let held = positions.position(of: assets[index].id, in: assets)
            else {
                positions.insert(position, in: assets)
                continue
            }
            if LibraryNaming.precedes(position, held, view: .folders, in: assets) {
                positions.remove(held, in: assets)
                positions.insert(position, in: assets)
                hidden.insert(held)
            } else {
                hidden.insert(position)
            }
        }
        self.positions = positions
        self.hidden = hidden
        shown =
            hidden.isEmpty
            ? (0..<assets.count).map { Int32($0) } : (0..<assets.count).lazy.map { Int32($0) }.filter { !hidden.contains($0) }
    }
}
