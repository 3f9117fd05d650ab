import MediaFormats

extension ViewTree {
    /// Computes the tree for `snapshot`.
    ///
    /// - `previous`: the tree being replaced, so that names stay the same for assets that
    ///   stay in a directory (see `ViewNaming`). Inode numbers do not depend on it.
    /// - `filters`: decides which granted assets pass each app's filter.
    ///
    /// Layout: `.picker`, `library/{all, by-date/YYYY/MM/DD, by-camera/<camera>, folders/...}`
    /// and `apps/<app>`. Assets whose id appears twice in the snapshot are shown once
    /// (the first by path). In an app view an asset is shown when it is granted, passes
    /// the filter, exists, and (unless the policy is `keep`) has a redaction plan that
    /// does not withhold it.
    public static func build(snapshot: LibrarySnapshot, previous: ViewTree? = nil, filters: some AppFilterResolving) -> ViewTree {
        var builder = ViewTreeBuilder(snapshot: snapshot, previous: previous)
        builder.buildAll(filters: filters)
        return ViewTree(
            snapshot: snapshot, nodes: builder.nodes, inodeTable: builder.inodeTable, entryTable: builder.entryTable,
            appsByUID: builder.appsByUID)
    }

    /// The directory name used for assets with neither make nor model.
    public static let unknownCamera = "Unknown camera"

    /// The `by-camera` directory name of an asset: "Make Model", or the model alone when it
    /// already starts with the make (`Canon` + `Canon EOS 40D` → `Canon EOS 40D`).
    public static func cameraName(make: String?, model: String?) -> String {
        let make = trimmed(make ?? "")
        let model = trimmed(model ?? "")
        switch (make.isEmpty, model.isEmpty) {
        case (true, true): return unknownCamera
        case (false, true): return make
        case (true, false): return model
        case (false, false):
            return model.lowercased().hasPrefix(make.lowercased()) ? model : make + " " + model
        }
    }

    private static func trimmed(_ text: String) -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\0" || $0 == "\t" || $0 == "\n" }
        var view = Substring(text)
        while let first = view.first, isSpace(first) { view = view.dropFirst() }
        while let last = view.last, isSpace(last) { view = view.dropLast() }
        return String(view)
    }
}

/// Accumulates nodes while a tree is built; resolves inode collisions by probing upward
/// from the hashed number (deterministic for a given snapshot).
struct ViewTreeBuilder {
    let snapshot: LibrarySnapshot
    let previous: ViewTree?
    var nodes: [ViewNode] = []
    var inodeTable = NodeTable(capacity: 0)
    var entryTable = NodeTable(capacity: 0)
    var appsByUID: [UInt32: Set<String>] = [:]
    /// The view path of every directory node, by node index, to derive children's inodes.
    private var directoryPaths: [Int32: [UInt8]] = [:]
    /// Per asset, computed once and shared by every view (one name buffer, not four).
    private var ids: [AssetID] = []
    private var baseNames: [[UInt8]] = []

    init(snapshot: LibrarySnapshot, previous: ViewTree?) {
        self.snapshot = snapshot
        self.previous = previous
    }

    mutating func buildAll(filters: some AppFilterResolving) {
        let assets = snapshot.assets
        // Columns read once, so sorting compares plain values instead of copying assets.
        let ids = assets.map(\.id)
        self.ids = ids
        baseNames = assets.map { ViewNaming.sanitized($0.path.fileName) }
        let paths = assets.map(\.path.bytes)
        let sortKeys = assets.map { $0.effectiveDate.sortKey }
        // One node per id: the first by path wins, so a duplicate can't shadow another.
        var firstByID: [AssetID: Int32] = [:]
        var byPath: [Int32] = []
        let pathOrder = assets.indices.sorted { a, b in
            paths[a] == paths[b] ? ids[a] < ids[b] : ViewNaming.precedes(paths[a], paths[b])
        }
        for index in pathOrder where firstByID[ids[index]] == nil {
            firstByID[ids[index]] = Int32(index)
            byPath.append(Int32(index))
        }
        let byDate = byPath.sorted { a, b in
            let (ka, kb) = (sortKeys[Int(a)], sortKeys[Int(b)])
            if ka != kb { return ka < kb }
            return ids[Int(a)] < ids[Int(b)]
        }

        // Four library views per asset plus directories: size the tables once.
        let expected = assets.count * 4 + assets.count / 8 + 64
        nodes.reserveCapacity(expected)
        inodeTable = NodeTable(capacity: expected)
        entryTable = NodeTable(capacity: expected)
        let root = add(inode: ViewInode.root, parent: nil, name: [], kind: .directory, scope: .shared, path: [])
        _ = add(inode: ViewInode.picker, parent: root, name: Array(".picker".utf8), kind: .picker, scope: .owner, path: nil)
        let library = add(
            inode: ViewInode.library, parent: root, name: Array("library".utf8), kind: .directory, scope: .owner,
            path: Array("library".utf8))
        let apps = add(
            inode: ViewInode.apps, parent: root, name: Array("apps".utf8), kind: .directory, scope: .shared, path: Array("apps".utf8))
        let all = add(
            inode: ViewInode.all, parent: library, name: Array("all".utf8), kind: .directory, scope: .owner, path: Array("library/all".utf8)
        )
        let dates = add(
            inode: ViewInode.byDate, parent: library, name: Array("by-date".utf8), kind: .directory, scope: .owner,
            path: Array("library/by-date".utf8))
        let cameras = add(
            inode: ViewInode.byCamera, parent: library, name: Array("by-camera".utf8), kind: .directory, scope: .owner,
            path: Array("library/by-camera".utf8))
        let folders = add(
            inode: ViewInode.folders, parent: library, name: Array("folders".utf8), kind: .directory, scope: .owner,
            path: Array("library/folders".utf8))

        addFiles(byDate, to: all, policy: .keep, scope: .owner)
        buildByDate(byDate, under: dates)
        buildByCamera(byDate, under: cameras)
        buildFolders(byPath, under: folders)
        buildApps(firstByID: firstByID, under: apps, filters: filters)
    }

    // MARK: - Views

    private mutating func buildByDate(_ ordered: [Int32], under dates: Int32) {
        var groups: [Int64: [Int32]] = [:]
        var keys: [Int64] = []
        for index in ordered {
            let date = snapshot.assets[Int(index)].effectiveDate
            let key = Int64(date.year) * 10_000 + Int64(date.month) * 100 + Int64(date.day)
            if groups[key] == nil { keys.append(key) }
            groups[key, default: []].append(index)
        }
        var years: [Int64: Int32] = [:]
        var months: [Int64: Int32] = [:]
        for key in keys.sorted() {
            let (year, month, day) = (key / 10_000, key / 100 % 100, key % 100)
            let yearNode = years[year] ?? directory(named: Self.digits(year, 4), in: dates, scope: .owner)
            years[year] = yearNode
            let monthNode = months[key / 100] ?? directory(named: Self.digits(month, 2), in: yearNode, scope: .owner)
            months[key / 100] = monthNode
            let dayNode = directory(named: Self.digits(day, 2), in: monthNode, scope: .owner)
            addFiles(groups[key] ?? [], to: dayNode, policy: .keep, scope: .owner)
        }
    }

    private mutating func buildByCamera(_ ordered: [Int32], under cameras: Int32) {
        var groups: [NameKey: [Int32]] = [:]
        // A library has a handful of cameras: name each (make, model) pair once.
        var names: [CameraKey: NameKey] = [:]
        for index in ordered {
            let metadata = snapshot.assets[Int(index)].metadata
            let key = CameraKey(make: metadata.make, model: metadata.model)
            let name: NameKey
            if let known = names[key] {
                name = known
            } else {
                name = NameKey(ViewNaming.sanitized(Array(ViewTree.cameraName(make: metadata.make, model: metadata.model).utf8)))
                names[key] = name
            }
            groups[name, default: []].append(index)
        }
        for name in groups.keys.sorted(by: { ViewNaming.precedes($0.bytes, $1.bytes) }) {
            let directory = directory(named: name.bytes, in: cameras, scope: .owner)
            addFiles(groups[name] ?? [], to: directory, policy: .keep, scope: .owner)
        }
    }

    /// `members` must be in path order, so a parent folder is always made before its children.
    private mutating func buildFolders(_ members: [Int32], under folders: Int32) {
        let assets = snapshot.assets
        // By sanitized folder path (what decides the directory), and by the raw folder
        // bytes of the path (so most files need one table read, no splitting).
        var directories: [NameKey: Int32] = [NameKey([]): folders]
        var byRawFolder: [NameKey: Int32] = [:]
        var files: [Int32: [Int32]] = [:]
        for index in members {
            let bytes = assets[Int(index)].path.bytes
            let folderEnd = bytes.lastIndex(of: UInt8(ascii: "/")) ?? bytes.startIndex
            let rawFolder = NameKey(Array(bytes[..<folderEnd]))
            if let directory = byRawFolder[rawFolder] {
                files[directory, default: []].append(index)
                continue
            }
            let components = assets[Int(index)].path.components.map(ViewNaming.sanitized)
            var folderPath: [UInt8] = []
            var directory = folders
            for component in components.dropLast() {
                folderPath += folderPath.isEmpty ? component : [UInt8(ascii: "/")] + component
                if let existing = directories[NameKey(folderPath)] {
                    directory = existing
                } else {
                    directory = self.directory(named: component, in: directory, scope: .owner)
                    directories[NameKey(folderPath)] = directory
                }
            }
            // A path with empty components ("a//b") is split differently from its bytes:
            // only a plain path may take the shortcut next time.
            if !bytes.isEmpty, bytes.first != UInt8(ascii: "/"), !bytes.contains(where: { $0 == 0 }),
                !bytes.indices.dropFirst().contains(where: { bytes[$0] == UInt8(ascii: "/") && bytes[$0 - 1] == UInt8(ascii: "/") }),
                bytes.last != UInt8(ascii: "/")
            {
                byRawFolder[rawFolder] = directory
            }
            files[directory, default: []].append(index)
        }
        let ordered = directories.values.sorted()
        for directory in ordered {
            addFiles(files[directory] ?? [], to: directory, policy: .keep, scope: .owner)
            let names = nodes[Int(directory)].children.map { ($0, nodes[Int($0)].name) }
            nodes[Int(directory)].children = names.sorted { ViewNaming.precedes($0.1, $1.1) }.map(\.0)
        }
    }

    private mutating func buildApps(firstByID: [AssetID: Int32], under apps: Int32, filters: some AppFilterResolving) {
        for name in snapshot.apps.keys.sorted() {
            guard let app = snapshot.apps[name] else { continue }
            let directoryName = Array(name.utf8)
            guard ViewNaming.sanitized(directoryName) == directoryName else { continue }
            let scope = ViewScope.app(name)
            let directory = self.directory(named: directoryName, in: apps, scope: scope)
            if let uid = app.uid { appsByUID[uid, default: []].insert(name) }
            guard let passes = filters.predicate(for: app) else { continue }
            var seen = Set<AssetID>()
            var members: [Int32] = []
            for grant in snapshot.grants[name] ?? [] where seen.insert(grant.asset).inserted {
                guard let index = firstByID[grant.asset] else { continue }
                let asset = snapshot.assets[Int(index)]
                if app.locationPolicy != .keep, case .withheld = asset.redaction.plan(for: app.locationPolicy) { continue }
                if passes(asset) { members.append(index) }
            }
            addFiles(members, to: directory, policy: app.locationPolicy, scope: scope)
        }
    }

    // MARK: - Nodes

    /// Adds a derived-inode directory called `name` below `parent`.
    private mutating func directory(named name: [UInt8], in parent: Int32, scope: ViewScope) -> Int32 {
        let path = (directoryPaths[parent] ?? []) + [UInt8(ascii: "/")] + name
        return add(inode: ViewInode.directory(path: path), parent: parent, name: name, kind: .directory, scope: scope, path: path)
    }

    /// Adds `members` (asset indices, in priority order) as files of `directory`, named
    /// without clashing with each other or with the directory's existing children.
    private mutating func addFiles(_ members: [Int32], to directory: Int32, policy: LocationPolicy, scope: ViewScope) {
        guard !members.isEmpty else { return }
        let directoryPath = directoryPaths[directory] ?? []
        let directoryInode = nodes[Int(directory)].inode
        let reserved = Set(nodes[Int(directory)].children.map { NameKey(nodes[Int($0)].name) })
        var inodes: [UInt64] = []
        inodes.reserveCapacity(members.count)
        let prefix = ViewInode.filePrefix(directoryPath: directoryPath)
        let candidates = members.map { index -> ViewNaming.Candidate in
            let id = ids[Int(index)]
            let inode = ViewInode.file(in: prefix, asset: id)
            inodes.append(inode)
            let previousName = previous?.previousName(ofFile: inode, in: directoryInode, asset: id)
            return ViewNaming.Candidate(base: baseNames[Int(index)], id: id, previous: previousName)
        }
        let names = ViewNaming.assign(candidates, reserved: reserved)
        for (position, index) in members.enumerated() {
            _ = add(
                inode: inodes[position], parent: directory, name: names[position], kind: .file(asset: index, policy: policy), scope: scope,
                path: nil)
        }
    }

    /// Inserts a node, moving its inode number up past any number already taken.
    private mutating func add(inode wanted: UInt64, parent: Int32?, name: [UInt8], kind: ViewNodeKind, scope: ViewScope, path: [UInt8]?)
        -> Int32
    {
        var inode = wanted
        var hash = NodeTable.hash(inode: inode)
        while inodeTable.find(hash: hash, { nodes[Int($0)].inode == inode }) != nil {
            inode = inode &+ 1
            if inode < ViewInode.firstDerived { inode = ViewInode.firstDerived }
            hash = NodeTable.hash(inode: inode)
        }
        let index = Int32(nodes.count)
        let parentInode = parent.map { nodes[Int($0)].inode } ?? inode
        nodes.append(ViewNode(inode: inode, parent: parentInode, name: name, kind: kind, scope: scope))
        if inodeTable.isFull || entryTable.isFull { growTables() }
        inodeTable.insert(index, hash: hash)
        if let parent {
            nodes[Int(parent)].children.append(index)
            entryTable.insert(index, hash: NodeTable.hash(parent: parentInode, name: name))
        }
        if let path { directoryPaths[index] = path }
        return index
    }

    /// Doubles both tables (only when the node count outgrows the estimate made up front).
    private mutating func growTables() {
        let nodes = self.nodes
        inodeTable.grow { NodeTable.hash(inode: nodes[Int($0)].inode) }
        entryTable.grow { NodeTable.hash(parent: nodes[Int($0)].parent, name: nodes[Int($0)].name) }
    }

    private static func digits(_ value: Int64, _ width: Int) -> [UInt8] {
        let text = String(value)
        return Array((String(repeating: "0", count: max(0, width - text.count)) + text).utf8)
    }
}

/// The camera fields that decide a `by-camera` directory name.
struct CameraKey: Hashable {
    var make: String?
    var model: String?
}
