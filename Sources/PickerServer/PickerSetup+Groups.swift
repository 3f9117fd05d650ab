import PhotoCore

/// A group (a Live Photo, a RAW+JPEG pair) is one tile: the first of its members that the
/// picker offers stands for it, and picking it picks every member offered. A member the
/// app's filter or the request's media leaves out is not offered, so it is never granted.
extension PickerSetup {
    /// Per tile that stands for a group, the group and its offered members (the tile's own
    /// first); and the offered members that have no tile of their own.
    public typealias GroupTiles = (tiles: [AssetID: (group: AssetGroup, members: [AssetID])], hidden: Set<AssetID>)

    /// The tiles that stand for groups (see `GroupTiles`).
    public func groupTiles() -> GroupTiles {
        guard !groups.isEmpty else { return ([:], []) }
        let offered = Set(candidates.map(\.id))
        var tiles: [AssetID: (group: AssetGroup, members: [AssetID])] = [:]
        var hidden: Set<AssetID> = []
        for group in groups.groups {
            let members = group.members.filter(offered.contains)
            // A group of which one member is offered is an ordinary tile.
            guard members.count >= 2, let first = members.first else { continue }
            tiles[first] = (group, members)
            hidden.formUnion(members.dropFirst())
        }
        return (tiles, hidden)
    }

    /// `ids` with the other offered members of each one's group after it, each id once:
    /// what an Add grants.
    public func withGroupMembers(_ ids: [AssetID]) -> [AssetID] {
        guard !groups.isEmpty else { return ids }
        let offered = Set(candidates.map(\.id))
        var seen: Set<AssetID> = []
        var result: [AssetID] = []
        for id in ids {
            let partners = offered.contains(id) ? groups.partners(of: id).filter(offered.contains) : []
            for member in [id] + partners where seen.insert(member).inserted {
                result.append(member)
            }
        }
        return result
    }
}
