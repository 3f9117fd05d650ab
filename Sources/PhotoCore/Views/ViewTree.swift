/// The whole mounted tree computed from one `LibrarySnapshot`: immutable, shared by every
/// FUSE thread, replaced as a whole when the catalog changes.
///
/// Lookups by inode and by (parent, name) are hash-table hits (O(1)); a directory's
/// children are an array in listing order, so a readdir cookie can simply be the position
/// in that array (valid for as long as the caller holds on to this tree).
public final class ViewTree: Sendable {
    /// The snapshot the tree was computed from; file nodes index into its `assets`.
    public let snapshot: LibrarySnapshot
    let nodes: [ViewNode]
    /// Node positions by inode.
    let inodeTable: NodeTable
    /// Node positions by (parent inode, name).
    let entryTable: NodeTable
    /// The apps each bound uid may see.
    let appsByUID: [UInt32: Set<String>]

    init(snapshot: LibrarySnapshot, nodes: [ViewNode], inodeTable: NodeTable, entryTable: NodeTable, appsByUID: [UInt32: Set<String>]) {
        self.snapshot = snapshot
        self.nodes = nodes
        self.inodeTable = inodeTable
        self.entryTable = entryTable
        self.appsByUID = appsByUID
    }

    /// The position of the node with this inode number.
    func nodePosition(of inode: UInt64) -> Int32? {
        inodeTable.find(hash: NodeTable.hash(inode: inode)) { nodes[Int($0)].inode == inode }
    }

    /// The number of nodes, the root included.
    public var nodeCount: Int { nodes.count }

    /// The node with this inode number, or nil when the snapshot has no such node.
    public func node(inode: UInt64) -> ViewNode? {
        guard let index = nodePosition(of: inode) else { return nil }
        return nodes[Int(index)]
    }

    /// The child called `name` of directory `parent`, or nil. `.` and `..` resolve to the
    /// directory itself and its parent.
    public func lookup(parent: UInt64, name: [UInt8]) -> ViewNode? {
        if name == [UInt8(ascii: ".")] { return node(inode: parent) }
        if name == [UInt8(ascii: "."), UInt8(ascii: ".")] {
            guard let directory = node(inode: parent) else { return nil }
            return node(inode: directory.parent)
        }
        let found = entryTable.find(hash: NodeTable.hash(parent: parent, name: name)) { position in
            let node = nodes[Int(position)]
            return node.parent == parent && node.name == name
        }
        guard let index = found else { return nil }
        return nodes[Int(index)]
    }

    /// The number of children of a directory (0 for files and unknown inodes).
    public func childCount(of inode: UInt64) -> Int {
        guard let index = nodePosition(of: inode) else { return 0 }
        return nodes[Int(index)].children.count
    }

    /// The child at `position` in the directory's listing order, or nil past the end.
    public func child(of inode: UInt64, at position: Int) -> ViewNode? {
        guard let index = nodePosition(of: inode) else { return nil }
        let children = nodes[Int(index)].children
        guard position >= 0, position < children.count else { return nil }
        return nodes[Int(children[position])]
    }

    /// The children of a directory in listing order (tests and diffs; readdir pages with `child(of:at:)`).
    public func children(of inode: UInt64) -> [ViewNode] {
        guard let index = nodePosition(of: inode) else { return [] }
        return nodes[Int(index)].children.map { nodes[Int($0)] }
    }

    /// The asset a file node serves.
    public func asset(of node: ViewNode) -> Asset? {
        guard case .file(let asset, _) = node.kind, asset >= 0, Int(asset) < snapshot.assets.count else { return nil }
        return snapshot.assets[Int(asset)]
    }

    /// The position in the snapshot's assets of the asset a file node serves (no copy of the asset).
    func assetPosition(of node: ViewNode) -> Int? {
        guard case .file(let asset, _) = node.kind, asset >= 0, Int(asset) < snapshot.assets.count else { return nil }
        return Int(asset)
    }

    /// The name file node `inode` has in directory `parent` when it serves the asset `id`,
    /// else nil. Runs once per file of every rebuild, so it reads the fields in place
    /// instead of copying the node (a copy retains its name, scope and children).
    func previousName(ofFile inode: UInt64, in parent: UInt64, asset id: AssetID) -> [UInt8]? {
        guard let found = nodePosition(of: inode) else { return nil }
        let position = Int(found)
        guard nodes[position].parent == parent, case .file(let asset, _) = nodes[position].kind, asset >= 0,
            Int(asset) < snapshot.assets.count, snapshot.assets[Int(asset)].id == id
        else { return nil }
        return nodes[position].name
    }

    /// The node's path from the mount root, components joined by `/` (for messages and tests).
    public func path(of inode: UInt64) -> [UInt8] {
        var components: [[UInt8]] = []
        var current = inode
        var steps = 0
        while current != ViewInode.root, let node = node(inode: current), steps < 4096 {
            components.append(node.name)
            current = node.parent
            steps += 1
        }
        return Array(components.reversed().joined(separator: [UInt8(ascii: "/")]))
    }

    /// Walks a `/`-separated path from the root (tests and the control file's mount paths).
    public func resolve(_ path: [UInt8]) -> ViewNode? {
        var current = node(inode: ViewInode.root)
        for component in path.split(separator: UInt8(ascii: "/")) {
            guard let directory = current else { return nil }
            current = lookup(parent: directory.inode, name: Array(component))
        }
        return current
    }
}
