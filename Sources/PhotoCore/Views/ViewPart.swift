import MediaFormats

/// One separately built part of the mounted tree: the library part (the root, `.picker`,
/// `library/...` and the `apps/` directory itself) or one app's part (its directory under
/// `apps/` and its files). A grant change rebuilds one app's part and shares every other
/// part with the tree it replaces; an open directory keeps only the part it lists.
///
/// Node positions (`children`, the tables) are indices into this part's `nodes`.
final class ViewPart: Sendable {
    let nodes: ChunkedArray<ViewNode>
    /// Node positions by inode.
    let inodeTable: NodeTable
    /// Node positions by (parent inode, name).
    let entryTable: NodeTable
    /// Positions of nodes a patch removed (in no table, in no listing): reused by the next patch.
    let free: [Int32]

    init(nodes: ChunkedArray<ViewNode>, inodeTable: NodeTable, entryTable: NodeTable, free: [Int32] = []) {
        self.nodes = nodes
        self.inodeTable = inodeTable
        self.entryTable = entryTable
        self.free = free
    }

    /// Whether the node at `position` is in the part (not a removed node's leftover).
    func isLive(_ position: Int) -> Bool {
        let inode = nodes[position].inode
        return self.position(of: inode, hash: NodeTable.hash(inode: inode)) == Int32(position)
    }

    /// The number of nodes in the part.
    var liveCount: Int { inodeTable.count }

    /// The position of the node with this inode, given `NodeTable.hash(inode:)` of it.
    func position(of inode: UInt64, hash: Int) -> Int32? {
        inodeTable.find(hash: hash) { nodes[Int($0)].inode == inode }
    }

    /// The position of `name` in directory `parent`, given `NodeTable.hash(parent:name:)`.
    func position(parent: UInt64, name: [UInt8], hash: Int) -> Int32? {
        entryTable.find(hash: hash) { position in
            let node = nodes[Int(position)]
            return node.parent == parent && node.name == name
        }
    }

    /// The first node: the root of the library part, the app directory of an app part.
    var top: ViewNode { nodes[0] }
}

/// Accumulates the nodes of one part; resolves inode collisions (within the part and with
/// the inodes `taken` says other parts hold) by probing upward from the hashed number.
struct ViewPartBuilder {
    var nodes = ChunkedArray<ViewNode>()
    var inodeTable: NodeTable
    var entryTable: NodeTable
    /// Whether another part of the same tree already holds an inode.
    let taken: (UInt64) -> Bool
    /// The view path of every directory node, by node index, to derive children's inodes.
    var directoryPaths: [Int32: [UInt8]] = [:]
    /// Positions of removed nodes that `add` fills before growing the array.
    var free: [Int32] = []

    init(capacity: Int, taken: @escaping (UInt64) -> Bool = { _ in false }) {
        nodes.reserveCapacity(capacity)
        inodeTable = NodeTable(capacity: capacity)
        entryTable = NodeTable(capacity: capacity)
        self.taken = taken
    }

    /// A builder that continues `part` (for a patch), checking `taken` for other parts' inodes.
    init(continuing part: ViewPart, taken: @escaping (UInt64) -> Bool) {
        nodes = part.nodes
        inodeTable = part.inodeTable
        entryTable = part.entryTable
        free = part.free
        self.taken = taken
    }

    func finish() -> ViewPart { ViewPart(nodes: nodes, inodeTable: inodeTable, entryTable: entryTable, free: free) }

    /// Takes the node at `position` out of both tables (its parent's listing is the caller's
    /// business) and keeps the position for reuse.
    mutating func unlink(_ position: Int32) {
        let nodes = self.nodes
        let node = nodes[Int(position)]
        inodeTable.remove(position, hash: NodeTable.hash(inode: node.inode)) { NodeTable.hash(inode: nodes[Int($0)].inode) }
        if node.inode != ViewInode.root {
            entryTable.remove(position, hash: NodeTable.hash(parent: node.parent, name: node.name)) {
                NodeTable.hash(parent: nodes[Int($0)].parent, name: nodes[Int($0)].name)
            }
        }
        free.append(position)
    }

    /// Adds a derived-inode directory called `name` below `parent`.
    mutating func directory(named name: [UInt8], in parent: Int32, scope: ViewScope) -> Int32 {
        let path = (directoryPaths[parent] ?? []) + [UInt8(ascii: "/")] + name
        return add(inode: ViewInode.directory(path: path), parent: parent, name: name, kind: .directory, scope: scope, path: path)
    }

    /// Adds `members` (asset positions in `assets`, in priority order) as files of
    /// `directory`, named without clashing with each other or with the directory's
    /// existing children; `previous` gives the name a file had in the tree being replaced.
    /// `baseNames`, when given, holds every asset's sanitized file name by position, so
    /// that the four library views of an asset share one name buffer; `ids`, when given,
    /// every asset's id (read from a dense column rather than from each asset). Under the
    /// compatible `representation`, the assets it converts are named `.jpg` and numbered apart.
    mutating func addFiles(
        _ members: [Int32], of assets: ChunkedArray<Asset>, ids: [AssetID]? = nil, baseNames: [[UInt8]]? = nil, to directory: Int32,
        policy: LocationPolicy,
        metadata: MetadataPolicy = .keep, scope: ViewScope, representation: Representation = .original,
        quality: Int = JPEGQualityText.defaultQuality, previous: (_ inode: UInt64, _ parent: UInt64, _ id: AssetID) -> [UInt8]?
    ) {
        guard !members.isEmpty else { return }
        let directoryPath = directoryPaths[directory] ?? []
        let directoryInode = nodes[Int(directory)].inode
        let reserved = Set(nodes[Int(directory)].children.map { NameKey(nodes[Int($0)].name) })
        var inodes: [UInt64] = []
        inodes.reserveCapacity(members.count)
        let prefix = ViewInode.filePrefix(directoryPath: directoryPath)
        let converted = FileRepresentation.compatibleJPEG(quality: UInt8(clamping: quality))
        let convertedPrefix = ViewInode.compatibleFilePrefix(directoryPath: directoryPath, quality: quality)
        var forms: [FileRepresentation] = []
        forms.reserveCapacity(members.count)
        let candidates = members.map { index -> ViewNaming.Candidate in
            // Fields read in place: copying a whole asset retains each of its parts.
            let id = ids?[Int(index)] ?? assets[Int(index)].id
            let converts = representation != .original && representation.servesJPEG(for: assets[Int(index)].metadata.format)
            let inode = ViewInode.file(in: converts ? convertedPrefix : prefix, asset: id)
            inodes.append(inode)
            forms.append(converts ? converted : .original)
            var base = baseNames?[Int(index)] ?? ViewNaming.sanitized(assets[Int(index)].path.fileName)
            if converts { base = ViewNaming.jpegName(base) }
            return ViewNaming.Candidate(base: base, id: id, previous: previous(inode, directoryInode, id))
        }
        let names = ViewNaming.assign(candidates, reserved: reserved)
        for (position, index) in members.enumerated() {
            _ = add(
                inode: inodes[position], parent: directory, name: names[position],
                kind: .file(asset: index, policy: policy, metadata: metadata), scope: scope,
                representation: forms[position], path: nil)
        }
    }

    /// Inserts a node, moving its inode number up past any number already taken. With
    /// `parentInode` (the top node of an app part), the parent lives in another part.
    mutating func add(
        inode wanted: UInt64, parent: Int32?, parentInode: UInt64? = nil, name: [UInt8], kind: ViewNodeKind, scope: ViewScope,
        representation: FileRepresentation = .original, path: [UInt8]?, listed: Bool = true
    ) -> Int32 {
        var inode = wanted
        var hash = NodeTable.hash(inode: inode)
        while inodeTable.find(hash: hash, { nodes[Int($0)].inode == inode }) != nil || taken(inode) {
            inode = inode &+ 1
            if inode < ViewInode.firstDerived { inode = ViewInode.firstDerived }
            hash = NodeTable.hash(inode: inode)
        }
        let parentNumber = parent.map { nodes[Int($0)].inode } ?? parentInode ?? inode
        let node = ViewNode(inode: inode, parent: parentNumber, name: name, kind: kind, scope: scope, representation: representation)
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            nodes[Int(index)] = node
        } else {
            index = Int32(nodes.count)
            nodes.append(node)
        }
        if inodeTable.isFull || entryTable.isFull { growTables() }
        inodeTable.insert(index, hash: hash)
        if let parent {
            if listed { nodes[Int(parent)].children.append(index) }
            entryTable.insert(index, hash: NodeTable.hash(parent: parentNumber, name: name))
        }
        if let path { directoryPaths[index] = path }
        return index
    }

    /// Doubles both tables (only when the node count outgrows the estimate made up front).
    private mutating func growTables() {
        let nodes = self.nodes
        // `grow` re-inserts every stored position: positions on the free list are in no table.
        inodeTable.grow { NodeTable.hash(inode: nodes[Int($0)].inode) }
        entryTable.grow { NodeTable.hash(parent: nodes[Int($0)].parent, name: nodes[Int($0)].name) }
    }
}
