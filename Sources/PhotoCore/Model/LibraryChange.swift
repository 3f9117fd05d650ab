/// How one snapshot's assets differ from the snapshot before it, position by position: what
/// a library change must patch in the views instead of rebuilding them.
///
/// Positions are indices into the two snapshots' `assets`. Every asset not named here keeps
/// its position; an asset that stays unchanged but had to move (to fill the place of a
/// removed one) is listed in `moved`.
public struct LibraryChange: Sendable, Equatable {
    /// Positions in the old snapshot of the assets that leave the views: removed ones and
    /// the old versions of changed ones.
    public var removed: [Int32]
    /// Positions in the new snapshot of the assets that enter the views: new ones and the
    /// new versions of changed ones.
    public var added: [Int32]
    /// Unchanged assets at a new position: old position, new position.
    public var moved: [Move]

    /// One unchanged asset's move.
    public struct Move: Sendable, Equatable {
        public var from: Int32
        public var to: Int32

        public init(from: Int32, to: Int32) {
            self.from = from
            self.to = to
        }
    }

    public init(removed: [Int32] = [], added: [Int32] = [], moved: [Move] = []) {
        self.removed = removed
        self.added = added
        self.moved = moved
    }

    public var isEmpty: Bool { removed.isEmpty && added.isEmpty && moved.isEmpty }
}

extension LibrarySnapshot {
    /// This snapshot's assets after replacing the asset of each id in `changed` by its
    /// current version (`current(id)`, nil when it is gone), keeping every other asset at
    /// its position: new assets fill the places of removed ones first, then go at the end;
    /// places still empty are filled by moving the last assets into them. Returns the new
    /// assets and how they differ, for the views to patch.
    public func assets<Failure: Error>(
        replacing changed: Set<AssetID>, with current: (AssetID) throws(Failure) -> [Asset]
    ) throws(Failure) -> (assets: ChunkedArray<Asset>, change: LibraryChange) {
        var assets = self.assets
        var change = LibraryChange()
        var holes: [Int] = []
        var found: [AssetID: Int] = [:]
        // Ids read in place: copying whole assets would retain every part of each.
        for position in assets.indices where changed.contains(assets[position].id) {
            found[assets[position].id] = position
        }
        var newcomers: [Asset] = []
        for id in changed.sorted() {
            var versions = try current(id)
            if let position = found[id] {
                change.removed.append(Int32(position))
                if versions.isEmpty {
                    holes.append(position)
                } else {
                    assets[position] = versions.removeFirst()
                    change.added.append(Int32(position))
                }
            }
            newcomers += versions
        }
        holes.sort()
        var next = 0
        for asset in newcomers {
            if next < holes.count {
                assets[holes[next]] = asset
                change.added.append(Int32(holes[next]))
                next += 1
            } else {
                change.added.append(Int32(assets.count))
                assets.append(asset)
            }
        }
        // Places still empty, lowest first, filled from the end (skipping ends that are holes).
        var empty = Set(holes[next...])
        for hole in holes[next...] {
            while let last = assets.indices.last, empty.contains(last) {
                assets.removeLast()
                empty.remove(last)
            }
            guard hole < assets.count, empty.contains(hole) else { continue }
            let last = assets.count - 1
            assets[hole] = assets[last]
            assets.removeLast()
            empty.remove(hole)
            // A changed asset that moves is simply added at its new place.
            if let entry = change.added.firstIndex(of: Int32(last)) {
                change.added[entry] = Int32(hole)
            } else {
                change.moved.append(LibraryChange.Move(from: Int32(last), to: Int32(hole)))
            }
        }
        return (assets, change)
    }
}
