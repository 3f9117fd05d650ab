/// Every asset's folder: the assets grouped by the bytes of their folder path (hashed in
/// place, no copy per asset), each group's members back to back.
struct FolderGroups: Sendable {
    /// Per group, one asset in it (whose path names the folder).
    let representatives: [Int32]
    /// The members of group `g` are `members[starts[g]..<starts[g + 1]]`, in storage order.
    let members: [Int32]
    let starts: [Int]

    init(representatives: [Int32], members: [Int32], starts: [Int]) {
        self.representatives = representatives
        self.members = members
        self.starts = starts
    }

    init(_ assets: ChunkedArray<Asset>) {
        let folderOf = { (path: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> in
            var end = path.count
            while end > 0, path[end - 1] != UInt8(ascii: "/") { end -= 1 }
            return UnsafeBufferPointer(rebasing: path[..<max(0, end - 1)])
        }
        // Per raw folder: one asset in it and its bytes (kept here, back to back: comparing
        // with the first asset's path instead missed the cache twice per asset).
        var table = NodeTable(capacity: 1024)
        var representatives: [Int32] = []
        var folderBytes: [UInt8] = []
        var folderStarts: [Int] = [0]
        var groupOf = [Int32](repeating: 0, count: assets.count)
        for index in 0..<assets.count {
            groupOf[index] = assets[index].path.withBytes { path -> Int32 in
                let folder = folderOf(path)
                let hash = LibraryDirectory.hash(folder)
                let found = folderBytes.withUnsafeBufferPointer { bytes in
                    table.find(hash: hash) { group in
                        UnsafeBufferPointer(rebasing: bytes[folderStarts[Int(group)]..<folderStarts[Int(group) + 1]]).elementsEqual(folder)
                    }
                }
                if let found { return found }
                if table.isFull {
                    folderBytes.withUnsafeBufferPointer { bytes in
                        table.grow { group in
                            LibraryDirectory.hash(
                                UnsafeBufferPointer(rebasing: bytes[folderStarts[Int(group)]..<folderStarts[Int(group) + 1]]))
                        }
                    }
                }
                let group = Int32(representatives.count)
                table.insert(group, hash: hash)
                representatives.append(Int32(index))
                folderBytes.append(contentsOf: folder)
                folderStarts.append(folderBytes.count)
                return group
            }
        }
        // Each folder's members, in one array cut by counts (no array per folder to grow).
        var starts = [Int](repeating: 0, count: representatives.count + 1)
        for group in groupOf { starts[Int(group) + 1] += 1 }
        for group in representatives.indices { starts[group + 1] += starts[group] }
        var members = [Int32](repeating: 0, count: assets.count)
        var next = starts
        for (index, group) in groupOf.enumerated() {
            members[next[Int(group)]] = Int32(index)
            next[Int(group)] += 1
        }
        self.representatives = representatives
        self.members = members
        self.starts = starts
    }
}
