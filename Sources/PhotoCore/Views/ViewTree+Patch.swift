import MediaFormats

extension ViewTree {
    /// Whether a library change that touched the assets with the ids in `touched` (gone,
    /// new, changed or moved) may change what app `app` shows, so that its part must be built
    /// again. An app whose members are decided by its grants only is affected exactly when
    /// one of its grants names a touched asset. Apps whose members depend on the library
    /// itself (rules over the library rather than a list of ids) must also answer true here
    /// whenever a touched asset could match them: this is the one place that decides it.
    static func libraryChangeMayAffect(_ app: App, grants: [Grant], touched: Set<AssetID>) -> Bool {
        // A rule app's members follow the library: any touched asset may now match or stop
        // matching one of its rules, so its part is built again (O(library) for that app).
        !app.rules.isEmpty || grants.contains { touched.contains($0.asset) }
    }

    /// The tree for `snapshot`, made by patching this one with `change` (how `snapshot`'s
    /// assets differ from this tree's, position by position), and what the kernel must
    /// forget, derived from the change rather than from comparing trees.
    ///
    /// The library part is copied and patched: the files of removed and changed assets
    /// leave their four directories (which go when they become empty), new and changed ones
    /// are named and inserted in listing order, moved ones point at their new positions.
    /// App parts are built again only for apps the change may affect (and apps whose
    /// settings or grants changed meanwhile). The result equals `build(snapshot:previous:)`
    /// node for node; nil when a patch could not guarantee that (an id shown twice, a new
    /// folder whose name a file holds, a change that does not fit this tree): build then.
    public func patching(_ change: LibraryChange, to snapshot: LibrarySnapshot, filters: some AppFilterResolving) -> (
        tree: ViewTree, changes: ViewTreeChanges
    )? {
        let (oldAssets, newAssets) = (self.snapshot.assets, snapshot.assets)
        guard firstByID.count == oldAssets.count,
            change.removed.allSatisfy({ $0 >= 0 && Int($0) < oldAssets.count }),
            change.added.allSatisfy({ $0 >= 0 && Int($0) < newAssets.count }),
            change.moved.allSatisfy({ $0.from >= 0 && Int($0.from) < oldAssets.count && $0.to >= 0 && Int($0.to) < newAssets.count })
        else { return nil }
        // Positions leave over the old assets and arrive over the new ones: each phase
        // holds only positions that are valid in the assets it reads ids from.
        var firstByID = self.firstByID
        var touched = Set<AssetID>()
        for position in change.removed + change.moved.map(\.from) {
            let id = oldAssets[Int(position)].id
            guard firstByID.position(of: id, in: oldAssets) == position else { return nil }
            firstByID.remove(position, in: oldAssets)
            touched.insert(id)
        }
        for move in change.moved {
            guard oldAssets[Int(move.from)].id == newAssets[Int(move.to)].id else { return nil }
        }
        for position in change.moved.map(\.to) + change.added {
            let id = newAssets[Int(position)].id
            guard firstByID.position(of: id, in: newAssets) == nil else { return nil }
            firstByID.insert(position, in: newAssets)
            touched.insert(id)
        }
        guard firstByID.count == newAssets.count else { return nil }

        let others = apps.map(\.part)
        let taken = { (inode: UInt64) -> Bool in
            let hash = NodeTable.hash(inode: inode)
            return others.contains { $0.position(of: inode, hash: hash) != nil }
        }
        var patcher = LibraryPatcher(part: ViewPartBuilder(continuing: library, taken: taken), old: oldAssets, new: newAssets)
        guard patcher.apply(change) else { return nil }
        let library = patcher.part.finish()

        var reusing: [String: ViewPart] = [:]
        for entry in apps {
            guard let app = snapshot.apps[entry.name], app == self.snapshot.apps[entry.name],
                snapshot.grants[entry.name] ?? [] == self.snapshot.grants[entry.name] ?? [],
                !Self.libraryChangeMayAffect(app, grants: snapshot.grants[entry.name] ?? [], touched: touched)
            else { continue }
            reusing[entry.name] = entry.part
        }
        let tree = Self.assemble(
            snapshot: snapshot, library: library, firstByID: firstByID, reusing: reusing, previous: self, filters: filters)
        var changes = patcher.changes
        let apps = appChanges(to: tree)
        changes.removedEntries += apps.removedEntries
        changes.invalidatedInodes += apps.invalidatedInodes
        return (tree, changes)
    }
}

/// Patches a copy of the library part for one `LibraryChange`: see `ViewTree.patching`.
/// Works in phases so that every lookup of an old node happens before any node is added:
/// remove, prune empty directories, repoint moved files, make directories, add files,
/// then merge the new children into the listings.
struct LibraryPatcher {
    var part: ViewPartBuilder
    let old: ChunkedArray<Asset>
    let new: ChunkedArray<Asset>
    /// What the kernel must forget.
    private(set) var changes = ViewTreeChanges()
    /// The inode each entry of `changes.removedEntries` named.
    private var removedInodes: [UInt64] = []
    /// Directories whose listing changes: children to drop.
    private var dropped: [Int32: Set<Int32>] = [:]
    /// Directories whose listing changes: new children, not yet in the listing.
    private var incoming: [Int32: [Int32]] = [:]
    /// Directories that get new files: the new assets' positions.
    private var arrivals: [Int32: [Int32]] = [:]
    /// The view path of each directory a new file goes to.
    private var directoryPaths: [Int32: [UInt8]] = [:]
    /// Directories listed by name (the folders view), rather than files by date.
    private var listedByName: Set<Int32> = []
    /// Names removed files had, by inode: a changed asset that stays keeps its name.
    private var removedNames: [UInt64: (parent: UInt64, name: [UInt8])] = [:]

    init(part: ViewPartBuilder, old: ChunkedArray<Asset>, new: ChunkedArray<Asset>) {
        self.part = part
        self.old = old
        self.new = new
    }

    /// One directory of the library views an asset appears in.
    private struct Place {
        /// The fixed directory it is below (`all`, `by-date`, `by-camera`, `folders`).
        var base: UInt64
        var basePath: [UInt8]
        var components: [[UInt8]]
        var byName: Bool
    }

    private static func places(of asset: Asset) -> [Place] {
        let date = asset.effectiveDate
        let camera = ViewNaming.sanitized(Array(ViewTree.cameraName(make: asset.metadata.make, model: asset.metadata.model).utf8))
        return [
            Place(base: ViewInode.all, basePath: Array("library/all".utf8), components: [], byName: false),
            Place(
                base: ViewInode.byDate, basePath: Array("library/by-date".utf8),
                components: [
                    LibraryPartBuilder.digits(Int64(date.year), 4), LibraryPartBuilder.digits(Int64(date.month), 2),
                    LibraryPartBuilder.digits(Int64(date.day), 2),
                ], byName: false),
            Place(base: ViewInode.byCamera, basePath: Array("library/by-camera".utf8), components: [camera], byName: false),
            Place(
                base: ViewInode.folders, basePath: Array("library/folders".utf8),
                components: asset.path.components.dropLast().map(ViewNaming.sanitized), byName: true),
        ]
    }

    /// Applies the change; false when the part does not look as the change expects or a
    /// patch would differ from a build.
    mutating func apply(_ change: LibraryChange) -> Bool {
        // 1. The files of removed and changed assets leave their directories.
        for position in change.removed {
            let asset = old[Int(position)]
            for place in Self.places(of: asset) {
                guard let (directory, path) = find(place), let file = file(of: asset.id, position, in: directory, path: path) else {
                    return false
                }
                let node = part.records[Int(file)]
                removedNames[node.inode] = (node.parent, part.names.name(node.name))
                forget(file)
                dropped[directory, default: []].insert(file)
            }
        }
        for (directory, files) in dropped {
            part.records[Int(directory)].children.removeAll { files.contains($0) }
        }
        // 2. Directories left empty go, up to the fixed ones.
        for directory in dropped.keys { prune(directory) }
        // 3. Moved assets' files point at their new positions (found before any is changed).
        var repointed: [(file: Int32, asset: Int32)] = []
        for move in change.moved {
            let asset = old[Int(move.from)]
            for place in Self.places(of: asset) {
                guard let (directory, path) = find(place), let file = file(of: asset.id, move.from, in: directory, path: path) else {
                    return false
                }
                repointed.append((file, move.to))
            }
        }
        for (file, asset) in repointed { part.records[Int(file)].kind = .file(asset: asset, policy: .keep, metadata: .keep) }
        // 4. Directories for new files, then 5. the files, named per directory.
        for position in change.added {
            for place in Self.places(of: new[Int(position)]) {
                guard let directory = make(place) else { return false }
                arrivals[directory, default: []].append(position)
            }
        }
        for (directory, members) in arrivals { addFiles(members, to: directory) }
        // 6. New children into the listings, in listing order.
        for (directory, children) in incoming { merge(children, into: directory) }

        var invalidated = Set(changes.invalidatedInodes)
        for directory in Set(dropped.keys).union(incoming.keys) where isLive(directory) {
            invalidated.insert(part.records[Int(directory)].inode)
        }
        changes.invalidatedInodes = Array(invalidated)
        // A changed file that kept its directory, name and inode needs no forgotten name.
        var kept = ViewTreeChanges(invalidatedInodes: changes.invalidatedInodes)
        for (entry, inode) in zip(changes.removedEntries, removedInodes) {
            if let position = lookup(entry.parent, entry.name), part.records[Int(position)].inode == inode { continue }
            kept.removedEntries.append(entry)
        }
        changes = kept
        return true
    }

    // MARK: - Finding and removing

    private func position(ofInode inode: UInt64) -> Int32? {
        let records = part.records
        return part.inodeTable.find(hash: NodeTable.hash(inode: inode)) { records[Int($0)].inode == inode }
    }

    private func lookup(_ parent: UInt64, _ name: [UInt8]) -> Int32? {
        let (records, names) = (part.records, part.names)
        return part.entryTable.find(hash: NodeTable.hash(parent: parent, name: name)) {
            records[Int($0)].parent == parent && names.name(records[Int($0)].name, equals: name)
        }
    }

    private func isLive(_ position: Int32) -> Bool { self.position(ofInode: part.records[Int(position)].inode) == position }

    /// The existing directory for `place` and its view path.
    private func find(_ place: Place) -> (Int32, [UInt8])? {
        guard var directory = position(ofInode: place.base) else { return nil }
        var path = place.basePath
        for component in place.components {
            guard let child = lookup(part.records[Int(directory)].inode, component), part.records[Int(child)].isDirectory else {
                return nil
            }
            directory = child
            path += [UInt8(ascii: "/")] + component
        }
        return (directory, path)
    }

    /// The file node of the asset `id` at snapshot position `asset` in `directory`.
    private func file(of id: AssetID, _ asset: Int32, in directory: Int32, path: [UInt8]) -> Int32? {
        let parent = part.records[Int(directory)].inode
        let serves = { (node: PartNode) -> Bool in
            if node.parent == parent, case .file(asset, _, _) = node.kind { return true }
            return false
        }
        if let found = position(ofInode: ViewInode.file(directoryPath: path, asset: id)), serves(part.records[Int(found)]) {
            return found
        }
        // Its number was moved up past a clash: look through the listing.
        return part.records[Int(directory)].children.first { serves(part.records[Int($0)]) }
    }

    /// Removes a node from the tables and records what the kernel must forget about it.
    private mutating func forget(_ position: Int32) {
        let node = part.records[Int(position)]
        changes.removedEntries.append(ViewEntry(parent: node.parent, name: part.names.name(node.name)))
        removedInodes.append(node.inode)
        changes.invalidatedInodes.append(node.inode)
        part.unlink(position)
    }

    /// Removes `directory` when it is empty and not a fixed one, then its parent likewise.
    private mutating func prune(_ directory: Int32) {
        var current = directory
        while isLive(current), part.records[Int(current)].children.isEmpty, part.records[Int(current)].inode >= ViewInode.firstDerived,
            let parent = position(ofInode: part.records[Int(current)].parent)
        {
            forget(current)
            part.records[Int(parent)].children.removeAll { $0 == current }
            dropped[parent, default: []].insert(current)
            current = parent
        }
    }

    // MARK: - Adding

    /// The directory for `place`, made (unlisted until `merge`) where missing; nil when a
    /// file holds a name a directory needs.
    private mutating func make(_ place: Place) -> Int32? {
        guard var directory = position(ofInode: place.base) else { return nil }
        var path = place.basePath
        if place.byName { listedByName.insert(directory) }
        for component in place.components {
            path += [UInt8(ascii: "/")] + component
            if let child = lookup(part.records[Int(directory)].inode, component) {
                guard part.records[Int(child)].isDirectory else { return nil }
                directory = child
            } else {
                let made = part.add(
                    inode: ViewInode.directory(path: path), parent: directory, name: component, kind: .directory, scope: .owner, path: nil,
                    listed: false)
                incoming[directory, default: []].append(made)
                directory = made
            }
            if place.byName { listedByName.insert(directory) }
        }
        directoryPaths[directory] = path
        return directory
    }

    /// Names the new files of one directory (in the directory's priority order, as a build
    /// would) and adds them unlisted.
    private mutating func addFiles(_ members: [Int32], to directory: Int32) {
        let byName = listedByName.contains(directory)
        let ordered = members.sorted { byName ? pathPrecedes($0, $1) : datePrecedes($0, $1) }
        let path = directoryPaths[directory] ?? []
        let parent = part.records[Int(directory)].inode
        let prefix = ViewInode.filePrefix(directoryPath: path)
        let inodes = ordered.map { ViewInode.file(in: prefix, asset: new[Int($0)].id) }
        let candidates = zip(ordered, inodes).map { position, inode -> ViewNaming.Candidate in
            let previous = removedNames[inode].flatMap { $0.parent == parent ? $0.name : nil }
            return ViewNaming.Candidate(
                base: ViewNaming.sanitized(new[Int(position)].path.fileName), id: new[Int(position)].id, previous: previous)
        }
        let names = ViewNaming.assign(candidates) { lookup(parent, $0) != nil }
        for (index, position) in ordered.enumerated() {
            let made = part.add(
                inode: inodes[index], parent: directory, name: names[index], kind: .file(asset: position, policy: .keep, metadata: .keep),
                scope: .owner,
                path: nil, listed: false)
            incoming[directory, default: []].append(made)
        }
    }

    /// Inserts new children into a directory's listing at their places.
    private mutating func merge(_ children: [Int32], into directory: Int32) {
        let listing = merged(children, into: directory)
        part.records[Int(directory)].children = listing
    }

    /// A directory's listing with `children` inserted at their places.
    private func merged(_ children: [Int32], into directory: Int32) -> [Int32] {
        let byName = listedByName.contains(directory)
        let precedes = { (a: Int32, b: Int32) -> Bool in self.listingPrecedes(a, b, byName: byName) }
        let arriving = children.sorted(by: precedes)
        let existing = part.records[Int(directory)].children
        var merged: [Int32] = []
        merged.reserveCapacity(existing.count + arriving.count)
        var next = 0
        for child in arriving {
            // Binary search: a large listing gets a few insertions, not a full comparison pass.
            var (low, high) = (next, existing.count)
            while low < high {
                let middle = (low + high) / 2
                if precedes(existing[middle], child) { low = middle + 1 } else { high = middle }
            }
            merged += existing[next..<low]
            merged.append(child)
            next = low
        }
        merged += existing[next...]
        return merged
    }

    /// Listing order: by name in the folders view and among directories, else by capture
    /// date then id (as `LibraryPartBuilder` lists files).
    private func listingPrecedes(_ a: Int32, _ b: Int32, byName: Bool) -> Bool {
        let (x, y) = (part.records[Int(a)], part.records[Int(b)])
        if !byName, case .file(let first, _, _) = x.kind, case .file(let second, _, _) = y.kind { return datePrecedes(first, second) }
        return part.names.precedes(x.name, y.name)
    }

    private func datePrecedes(_ a: Int32, _ b: Int32) -> Bool {
        let (ka, kb) = (new[Int(a)].effectiveDate.sortKey, new[Int(b)].effectiveDate.sortKey)
        return ka != kb ? ka < kb : new[Int(a)].id < new[Int(b)].id
    }

    private func pathPrecedes(_ a: Int32, _ b: Int32) -> Bool {
        let (pa, pb) = (new[Int(a)].path.bytes, new[Int(b)].path.bytes)
        return pa == pb ? new[Int(a)].id < new[Int(b)].id : ViewNaming.precedes(pa, pb)
    }
}
