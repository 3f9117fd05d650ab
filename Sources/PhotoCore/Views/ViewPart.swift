import MediaFormats

/// One separately built part of the mounted tree: the library part (the root, `.picker`,
/// `library/...` and the `apps/` directory itself) or one app's part (its directory under
/// `apps/` and its files). A grant change rebuilds one app's part and shares every other
/// part with the tree it replaces; an open directory keeps only the part it lists.
///
/// Node positions (`children`, the tables) are indices into this part's `records`.
final class ViewPart: Sendable {
    /// The stored nodes.
    let records: ChunkedArray<PartNode>
    /// Every node's name.
    let names: NameArena
    /// The scopes the part's nodes have (a node holds an index into them).
    let scopes: [ViewScope]
    /// Node positions by inode.
    let inodeTable: NodeTable
    /// Node positions by (parent inode, name).
    let entryTable: NodeTable
    /// Positions of nodes a patch removed (in no table, in no listing): reused by the next patch.
    let free: [Int32]

    init(
        records: ChunkedArray<PartNode>, names: NameArena, scopes: [ViewScope], inodeTable: NodeTable, entryTable: NodeTable,
        free: [Int32] = []
    ) {
        self.records = records
        self.names = names
        self.scopes = scopes
        self.inodeTable = inodeTable
        self.entryTable = entryTable
        self.free = free
    }

    /// The nodes by position, each made into a `ViewNode` when read (what comparing two
    /// parts reads; lookups and listings read `records` in place).
    var nodes: Nodes { Nodes(part: self) }

    /// The nodes of a part by position, made into `ViewNode`s on reading.
    struct Nodes {
        let part: ViewPart
        var count: Int { part.records.count }
        subscript(position: Int) -> ViewNode { ViewNode(part.records[position], names: part.names, scopes: part.scopes) }
    }

    /// The node at `position` as a `ViewNode`.
    func node(at position: Int32) -> ViewNode { ViewNode(records[Int(position)], names: names, scopes: scopes) }

    /// Whether the node at `position` is in the part (not a removed node's leftover).
    func isLive(_ position: Int) -> Bool {
        let inode = records[position].inode
        return self.position(of: inode, hash: NodeTable.hash(inode: inode)) == Int32(position)
    }

    /// The number of nodes in the part.
    var liveCount: Int { inodeTable.count }

    /// The position of the node with this inode, given `NodeTable.hash(inode:)` of it.
    func position(of inode: UInt64, hash: Int) -> Int32? {
        inodeTable.find(hash: hash) { records[Int($0)].inode == inode }
    }

    /// The position of `name` in directory `parent`, given `NodeTable.hash(parent:name:)`.
    func position(parent: UInt64, name: [UInt8], hash: Int) -> Int32? {
        entryTable.find(hash: hash) { position in
            records[Int(position)].parent == parent && names.name(records[Int(position)].name, equals: name)
        }
    }

    /// The first node: the root of the library part, the app directory of an app part.
    var top: ViewNode { node(at: 0) }
}

/// Accumulates the nodes of one part; resolves inode collisions (within the part and with
/// the inodes `taken` says other parts hold) by probing upward from the hashed number.
struct ViewPartBuilder {
    var records = ChunkedArray<PartNode>()
    var names = NameArena()
    var scopes: [ViewScope] = []
    var inodeTable: NodeTable
    var entryTable: NodeTable
    /// Whether another part of the same tree already holds an inode.
    let taken: (UInt64) -> Bool
    /// The view path of every directory node, by node index, to derive children's inodes.
    var directoryPaths: [Int32: [UInt8]] = [:]
    /// Positions of removed nodes that `add` fills before growing the array.
    var free: [Int32] = []

    init(capacity: Int, taken: @escaping (UInt64) -> Bool = { _ in false }) {
        records.reserveCapacity(capacity)
        inodeTable = NodeTable(capacity: capacity)
        entryTable = NodeTable(capacity: capacity)
        self.taken = taken
    }

    /// A builder that continues `part` (for a patch), checking `taken` for other parts' inodes.
    init(continuing part: ViewPart, taken: @escaping (UInt64) -> Bool) {
        records = part.records
        names = part.names
        scopes = part.scopes
        inodeTable = part.inodeTable
        entryTable = part.entryTable
        free = part.free
        self.taken = taken
    }

    func finish() -> ViewPart {
        ViewPart(records: records, names: names, scopes: scopes, inodeTable: inodeTable, entryTable: entryTable, free: free)
    }

    /// The name of the node at `position`.
    func name(at position: Int32) -> [UInt8] { names.name(records[Int(position)].name) }

    /// The hash of the node at `position` of `records` in the entry table.
    static func entryHash(_ position: Int32, records: ChunkedArray<PartNode>, names: NameArena) -> Int {
        let record = records[Int(position)]
        return names.withName(record.name) { NodeTable.hash(parent: record.parent, name: $0) }
    }

    /// Takes the node at `position` out of both tables (its parent's listing is the caller's
    /// business) and keeps the position for reuse.
    mutating func unlink(_ position: Int32) {
        // Copies of the arrays, not of `self`: the tables being changed must not be shared.
        let (records, names) = (self.records, self.names)
        let inode = records[Int(position)].inode
        inodeTable.remove(position, hash: NodeTable.hash(inode: inode)) { NodeTable.hash(inode: records[Int($0)].inode) }
        if inode != ViewInode.root {
            let entryHash = { (position: Int32) in Self.entryHash(position, records: records, names: names) }
            entryTable.remove(position, hash: entryHash(position), entryHash)
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
    /// Under the compatible `representation`, the assets it converts are named `.jpg` and
    /// numbered apart.
    mutating func addFiles(
        _ members: [Int32], of assets: ChunkedArray<Asset>, to directory: Int32,
        policy: LocationPolicy,
        metadata: MetadataPolicy = .keep, scope: ViewScope, representation: Representation = .original,
        quality: Int = JPEGQualityText.defaultQuality, previous: (_ inode: UInt64, _ parent: UInt64, _ id: AssetID) -> [UInt8]?
    ) {
        guard !members.isEmpty else { return }
        let directoryPath = directoryPaths[directory] ?? []
        let directoryInode = records[Int(directory)].inode
        let reserved = Set(records[Int(directory)].children.map { NameKey(name(at: $0)) })
        var inodes: [UInt64] = []
        inodes.reserveCapacity(members.count)
        let prefix = ViewInode.filePrefix(directoryPath: directoryPath)
        let converted = FileRepresentation.compatibleJPEG(quality: UInt8(clamping: quality))
        let convertedPrefix = ViewInode.compatibleFilePrefix(directoryPath: directoryPath, quality: quality)
        var forms: [FileRepresentation] = []
        forms.reserveCapacity(members.count)
        let candidates = members.map { index -> ViewNaming.Candidate in
            // Fields read in place: copying a whole asset retains each of its parts.
            let id = assets[Int(index)].id
            let converts = representation != .original && representation.servesJPEG(for: assets[Int(index)].metadata.format)
            let inode = ViewInode.file(in: converts ? convertedPrefix : prefix, asset: id)
            inodes.append(inode)
            forms.append(converts ? converted : .original)
            var base = ViewNaming.sanitized(assets[Int(index)].path.fileName)
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
    /// `parentInode` (the top node of an app part), the parent lives in another part; with
    /// `stored`, the name is the one already at that span of the arena.
    mutating func add(
        inode wanted: UInt64, parent: Int32?, parentInode: UInt64? = nil, name: [UInt8], stored: NameSpan? = nil, kind: ViewNodeKind,
        scope: ViewScope,
        representation: FileRepresentation = .original, path: [UInt8]?, listed: Bool = true
    ) -> Int32 {
        var inode = wanted
        var hash = NodeTable.hash(inode: inode)
        while inodeTable.find(hash: hash, { records[Int($0)].inode == inode }) != nil || taken(inode) {
            inode = inode &+ 1
            if inode < ViewInode.firstDerived || inode & ViewInode.libraryFileBit != 0 { inode = ViewInode.firstDerived }
            hash = NodeTable.hash(inode: inode)
        }
        let parentNumber = parent.map { records[Int($0)].inode } ?? parentInode ?? inode
        let scopeIndex = scopes.firstIndex(of: scope) ?? scopes.count
        if scopeIndex == scopes.count { scopes.append(scope) }
        let node = PartNode(
            inode: inode, parent: parentNumber, name: stored ?? names.append(name), kind: kind, scope: UInt8(scopeIndex),
            representation: representation)
        let index: Int32
        if let reused = free.popLast() {
            index = reused
            records[Int(index)] = node
        } else {
            index = Int32(records.count)
            records.append(node)
        }
        if inodeTable.isFull || entryTable.isFull { growTables() }
        inodeTable.insert(index, hash: hash)
        if let parent {
            if listed { records[Int(parent)].children.append(index) }
            entryTable.insert(index, hash: NodeTable.hash(parent: parentNumber, name: name))
        }
        if let path { directoryPaths[index] = path }
        return index
    }

    /// Doubles both tables (only when the node count outgrows the estimate made up front).
    private mutating func growTables() {
        let (records, names) = (self.records, self.names)
        // `grow` re-inserts every stored position: positions on the free list are in no table.
        inodeTable.grow { NodeTable.hash(inode: records[Int($0)].inode) }
        entryTable.grow { Self.entryHash($0, records: records, names: names) }
    }
}
