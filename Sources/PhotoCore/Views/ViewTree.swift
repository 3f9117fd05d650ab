/// The whole mounted tree computed from one `LibrarySnapshot`: immutable, shared by every
/// FUSE thread, replaced when the catalog changes.
///
/// It is made of parts (`ViewPart`): the library part and one part per app. A new tree
/// shares every part that did not change with the tree it replaces, so a grant change costs
/// one app's part. Lookups by inode and by (parent, name) are hash-table hits in each part
/// (the library part first, then the apps'); a directory's children are an array in
/// listing order, so a readdir cookie can simply be the position in that array. The files
/// of the library views are no nodes: `files` lists them per directory as asset positions,
/// and their inode numbers say which view and asset they show.
public final class ViewTree: Sendable {
    /// The snapshot the tree was computed from; file nodes index into its `assets`.
    public let snapshot: LibrarySnapshot
    /// The root, `.picker`, `library/...`'s directories and the `apps/` directory.
    let library: ViewPart
    /// The files of the library views.
    let files: LibraryFiles
    /// Per id, the position in `snapshot.assets` of the asset shown for it.
    let firstByID: AssetPositions
    /// The app parts, by app name (the listing order of `apps/`).
    let apps: [AppPart]
    /// The apps each bound uid may see.
    let appsByUID: [UInt32: Set<String>]
    /// When directory listings changed: shared with the trees this one replaces.
    public let directoryTimes: DirectoryTimes

    init(
        snapshot: LibrarySnapshot, library: ViewPart, files: LibraryFiles, firstByID: AssetPositions, apps: [AppPart],
        appsByUID: [UInt32: Set<String>], directoryTimes: DirectoryTimes
    ) {
        self.directoryTimes = directoryTimes
        self.snapshot = snapshot
        self.library = library
        self.files = files
        self.firstByID = firstByID
        self.apps = apps
        self.appsByUID = appsByUID
    }

    /// The part of the app called `name`, if it has one.
    func appPart(named name: String) -> ViewPart? {
        appPosition(named: name).map { apps[$0].part }
    }

    private func appPosition(named name: String) -> Int? {
        var low = 0
        var high = apps.count
        while low < high {
            let middle = (low + high) / 2
            if apps[middle].name < name { low = middle + 1 } else { high = middle }
        }
        return low < apps.count && apps[low].name == name ? low : nil
    }

    /// The part holding the node with this inode, and its position there.
    func location(of inode: UInt64) -> (part: ViewPart, position: Int32)? {
        let hash = NodeTable.hash(inode: inode)
        if let position = library.position(of: inode, hash: hash) { return (library, position) }
        for app in apps {
            if let position = app.part.position(of: inode, hash: hash) { return (app.part, position) }
        }
        return nil
    }

    /// The number of nodes, the root included.
    public var nodeCount: Int { apps.reduce(library.liveCount + files.count) { $0 + $1.part.liveCount } }

    /// The node with this inode number, or nil when the snapshot has no such node.
    public func node(inode: UInt64) -> ViewNode? {
        if inode & ViewInode.libraryFileBit != 0 {
            return files.node(inode: inode, assets: snapshot.assets, firstByID: firstByID)
        }
        guard let (part, position) = location(of: inode) else { return nil }
        return part.node(at: position)
    }

    /// The child called `name` of directory `parent`, or nil. `.` and `..` resolve to the
    /// directory itself and its parent.
    public func lookup(parent: UInt64, name: [UInt8]) -> ViewNode? {
        if name == [UInt8(ascii: ".")] { return node(inode: parent) }
        if name == [UInt8(ascii: "."), UInt8(ascii: ".")] {
            guard let directory = node(inode: parent) else { return nil }
            return node(inode: directory.parent)
        }
        if parent == ViewInode.apps {
            return appPosition(named: String(decoding: name, as: UTF8.self)).map { apps[$0].part.top }.flatMap {
                $0.name == name ? $0 : nil
            }
        }
        let hash = NodeTable.hash(parent: parent, name: name)
        if let position = library.position(parent: parent, name: name, hash: hash) { return library.node(at: position) }
        if let directory = files.directory(inode: parent) {
            guard let position = directory.member(named: name, in: snapshot.assets) else { return nil }
            let inode = ViewInode.libraryFile(view: directory.view, asset: snapshot.assets[Int(position)].id)
            return ViewNode(libraryFile: inode, parent: parent, name: name, asset: position)
        }
        for app in apps {
            if let position = app.part.position(parent: parent, name: name, hash: hash) { return app.part.node(at: position) }
        }
        return nil
    }

    /// The listing of a directory, holding only the part it lists (nil for files and
    /// unknown inodes).
    public func listing(of inode: UInt64) -> ViewListing? {
        if inode == ViewInode.apps { return ViewListing(apps: apps) }
        guard let (part, position) = location(of: inode), part.records[Int(position)].isDirectory else { return nil }
        if part === library, let directory = files.directory(inode: inode) {
            return ViewListing(part: part, position: position, files: directory, assets: snapshot.assets)
        }
        return ViewListing(part: part, position: position)
    }

    /// The number of children of a directory (0 for files and unknown inodes).
    public func childCount(of inode: UInt64) -> Int { listing(of: inode)?.count ?? 0 }

    /// The child at `position` in the directory's listing order, or nil past the end.
    public func child(of inode: UInt64, at position: Int) -> ViewNode? { listing(of: inode)?.child(at: position) }

    /// The children of a directory in listing order (tests and diffs; readdir pages with a `ViewListing`).
    public func children(of inode: UInt64) -> [ViewNode] {
        guard let listing = listing(of: inode) else { return [] }
        return (0..<listing.count).compactMap { listing.child(at: $0) }
    }

    /// The asset a file node serves.
    public func asset(of node: ViewNode) -> Asset? {
        assetPosition(of: node).map { snapshot.assets[$0] }
    }

    /// The position in the snapshot's assets of the asset a file node serves (no copy of the asset).
    func assetPosition(of node: ViewNode) -> Int? {
        guard case .file(let asset, _, _) = node.kind, asset >= 0, Int(asset) < snapshot.assets.count else { return nil }
        return Int(asset)
    }

    /// The name file node `inode` has in directory `parent` of `part` (over `assets`) when
    /// it serves the asset `id`, else nil. Runs once per file of every rebuild, so it reads
    /// the fields in place instead of copying the node.
    static func previousName(ofFile inode: UInt64, in parent: UInt64, asset id: AssetID, part: ViewPart, assets: ChunkedArray<Asset>)
        -> [UInt8]?
    {
        guard let found = part.position(of: inode, hash: NodeTable.hash(inode: inode)) else { return nil }
        let position = Int(found)
        guard part.records[position].parent == parent, case .file(let asset, _, _) = part.records[position].kind, asset >= 0,
            Int(asset) < assets.count, assets[Int(asset)].id == id
        else { return nil }
        return part.names.name(part.records[position].name)
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

/// One app's part of a tree.
struct AppPart: Sendable {
    let name: String
    let part: ViewPart
}

/// The children of one directory in listing order, holding only the part that lists them
/// (or, for `apps/`, the app parts; for a directory of the library views, also its files
/// and the assets they show): what an open directory keeps, so that its readdir cookies
/// stay valid without keeping a whole replaced tree alive.
public struct ViewListing: Sendable {
    enum Source: Sendable {
        case part(ViewPart, Int32)
        case apps([AppPart])
        case library(LibraryListing)
    }

    let source: Source

    init(part: ViewPart, position: Int32) { source = .part(part, position) }

    init(apps: [AppPart]) { source = .apps(apps) }

    init(part: ViewPart, position: Int32, files: LibraryDirectory, assets: ChunkedArray<Asset>) {
        source = .library(LibraryListing(part: part, position: position, files: files, assets: assets))
    }

    /// The number of children.
    public var count: Int {
        switch source {
        case .part(let part, let position): part.records[Int(position)].children.count
        case .apps(let apps): apps.count
        case .library(let listing): listing.count
        }
    }

    /// The child at `position`, or nil past the end.
    public func child(at position: Int) -> ViewNode? {
        guard position >= 0, position < count else { return nil }
        switch source {
        case .part(let part, let directory): return part.node(at: part.records[Int(directory)].children[position])
        case .apps(let apps): return apps[position].part.top
        case .library(let listing): return listing.child(at: position)
        }
    }
}

/// A directory of the library views: its subdirectories (nodes of the library part) and
/// its files (`LibraryDirectory`). In the folders view both are listed by name, merged; a
/// directory of the other views holds either subdirectories or files.
struct LibraryListing: Sendable {
    let part: ViewPart
    let position: Int32
    let files: LibraryDirectory
    /// The files' names and order (made now if the directory was never named).
    let named: NamedFiles
    let assets: ChunkedArray<Asset>
    /// The subdirectories' positions in `part`.
    let directories: [Int32]
    /// Where subdirectories and files interleave (folders holding both): each entry a file's
    /// index in `files.members`, or `-1 - i` for the `i`th subdirectory; nil when the
    /// subdirectories simply come first.
    let order: [Int32]?
    /// The entries laid out in sequence once a large listing is read (`ListedEntries`).
    let laidOut = ListedEntriesSlot()

    init(part: ViewPart, position: Int32, files: LibraryDirectory, assets: ChunkedArray<Asset>) {
        self.part = part
        self.position = position
        self.files = files
        self.assets = assets
        let named = files.named(in: assets)
        self.named = named
        let directories = part.records[Int(position)].children
        self.directories = directories
        guard files.view.listsByName, !directories.isEmpty, !named.members.isEmpty else {
            order = nil
            return
        }
        var order: [Int32] = []
        order.reserveCapacity(directories.count + named.members.count)
        var (d, f) = (0, 0)
        while d < directories.count || f < named.members.count {
            let takeDirectory: Bool
            if d == directories.count {
                takeDirectory = false
            } else if f == named.members.count {
                takeDirectory = true
            } else {
                takeDirectory = part.names.withName(part.records[Int(directories[d])].name) { directory in
                    named.withName(of: named.members[f], in: assets) { file in !NameArena.precedes(file, directory) }
                }
            }
            if takeDirectory {
                order.append(-1 - Int32(d))
                d += 1
            } else {
                order.append(Int32(f))
                f += 1
            }
        }
        self.order = order
    }

    var count: Int { directories.count + named.members.count }

    /// One entry of the listing.
    enum Entry {
        /// A subdirectory: its position in `part`.
        case directory(Int32)
        /// A file: the asset position it shows.
        case file(Int32)
    }

    /// What is at `index`.
    @inline(__always)
    func entry(at index: Int) -> Entry {
        if let order {
            let value = order[index]
            return value < 0 ? .directory(directories[Int(-1 - value)]) : .file(named.members[Int(value)])
        }
        return index < directories.count ? .directory(directories[index]) : .file(named.members[index - directories.count])
    }

    func child(at index: Int) -> ViewNode {
        switch entry(at: index) {
        case .directory(let directory): return part.node(at: directory)
        case .file(let position):
            let inode = ViewInode.libraryFile(view: files.view, asset: assets[Int(position)].id)
            return ViewNode(
                libraryFile: inode, parent: files.inode, name: named.withName(of: position, in: assets) { Array($0) }, asset: position)
        }
    }
}
