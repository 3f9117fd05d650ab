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
    /// The library part and files are copied and patched: the files of removed and changed
    /// assets leave their four directories (which go when they become empty), new and
    /// changed ones are named and inserted in listing order, moved ones point at their new
    /// positions; directories no file changed in are shared with this tree.
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
        var patcher = LibraryPatcher(
            part: ViewPartBuilder(continuing: library, taken: taken), files: files, old: oldAssets, new: newAssets)
        guard patcher.apply(change) else { return nil }
        let (library, files) = (patcher.part.finish(), patcher.finishFiles())

        var reusing: [String: ViewPart] = [:]
        for entry in apps {
            guard let app = snapshot.apps[entry.name], app == self.snapshot.apps[entry.name],
                snapshot.grants[entry.name] ?? [] == self.snapshot.grants[entry.name] ?? [],
                !Self.libraryChangeMayAffect(app, grants: snapshot.grants[entry.name] ?? [], touched: touched)
            else { continue }
            reusing[entry.name] = entry.part
        }
        let tree = Self.assemble(
            snapshot: snapshot, library: library, files: files, firstByID: firstByID, reusing: reusing, previous: self, filters: filters)
        var changes = patcher.changes
        let apps = appChanges(to: tree)
        changes.removedEntries += apps.removedEntries
        changes.invalidatedInodes += apps.invalidatedInodes
        return (tree, changes)
    }
}

/// Patches a copy of the library part and of the library views' files for one
/// `LibraryChange`: see `ViewTree.patching`. Works in phases so that every lookup of an old
/// directory or file happens before anything is added: files leave, empty directories go,
/// moved files point at their new positions, directories are made, new files are named,
/// then each touched directory's files and the new subdirectories are put in listing order.
struct LibraryPatcher {
    var part: ViewPartBuilder
    let files: LibraryFiles
    let old: ChunkedArray<Asset>
    let new: ChunkedArray<Asset>
    /// What the kernel must forget.
    private(set) var changes = ViewTreeChanges()
    /// The inode each entry of `changes.removedEntries` named.
    private var removedInodes: [UInt64] = []
    /// Directories whose subdirectories change: subdirectories to drop.
    private var dropped: [Int32: Set<Int32>] = [:]
    /// Directories whose subdirectories change: new ones, not yet listed.
    private var incoming: [Int32: [Int32]] = [:]
    /// Per directory node, the old asset positions of the files that leave it.
    private var leaving: [Int32: Set<Int32>] = [:]
    /// Per directory node, the files that stay but show another asset position (old to new).
    private var moves: [Int32: [Int32: Int32]] = [:]
    /// Per directory node, the new asset positions of the files that arrive.
    private var arrivals: [Int32: [Int32]] = [:]
    /// The view of each directory node that files leave, move in or arrive in.
    private var views: [Int32: LibraryView] = [:]
    /// Names removed files had, by inode: a changed asset that stays keeps its name.
    private var removedNames: [UInt64: (parent: UInt64, name: [UInt8])] = [:]
    /// The files' directories, as patched.
    private var directories: [LibraryDirectory?]
    private var directoryOf: [ChunkedArray<Int32>]

    init(part: ViewPartBuilder, files: LibraryFiles, old: ChunkedArray<Asset>, new: ChunkedArray<Asset>) {
        self.part = part
        self.files = files
        self.old = old
        self.new = new
        directories = files.directories
        directoryOf = files.directoryOf.map { column in
            var column = column
            while column.count < new.count { column.append(-1) }
            return column
        }
    }

    /// The files after `apply`.
    func finishFiles() -> LibraryFiles { LibraryFiles(directories: directories, directoryOf: directoryOf, allIndex: files.allIndex) }

    /// One directory of the library views an asset appears in.
    private struct Place {
        var view: LibraryView
        /// The fixed directory it is below (`all`, `by-date`, `by-camera`, `folders`).
        var base: UInt64
        var basePath: [UInt8]
        var components: [[UInt8]]
    }

    private static func places(of asset: Asset) -> [Place] {
        let date = asset.effectiveDate
        let camera = ViewNaming.sanitized(Array(ViewTree.cameraName(make: asset.metadata.make, model: asset.metadata.model).utf8))
        return [
            Place(view: .all, base: ViewInode.all, basePath: Array("library/all".utf8), components: []),
            Place(
                view: .byDate, base: ViewInode.byDate, basePath: Array("library/by-date".utf8),
                components: [
                    LibraryPartBuilder.digits(Int64(date.year), 4), LibraryPartBuilder.digits(Int64(date.month), 2),
                    LibraryPartBuilder.digits(Int64(date.day), 2),
                ]),
            Place(view: .byCamera, base: ViewInode.byCamera, basePath: Array("library/by-camera".utf8), components: [camera]),
            Place(
                view: .folders, base: ViewInode.folders, basePath: Array("library/folders".utf8),
                components: asset.path.components.dropLast().map(ViewNaming.sanitized)),
        ]
    }

    /// Applies the change; false when the tree does not look as the change expects or a
    /// patch would differ from a build.
    mutating func apply(_ change: LibraryChange) -> Bool {
        // 1. The files of removed and changed assets leave their directories.
        for position in change.removed {
            let asset = old[Int(position)]
            for place in Self.places(of: asset) {
                guard let directory = find(place), let shown = files.directory(of: position, view: place.view),
                    shown.inode == part.records[Int(directory)].inode
                else { return false }
                let inode = ViewInode.libraryFile(view: place.view, asset: asset.id)
                // A directory never named showed no name to forget.
                if shown.isNamed {
                    let name = shown.name(of: position, in: old)
                    removedNames[inode] = (shown.inode, name)
                    changes.removedEntries.append(ViewEntry(parent: shown.inode, name: name))
                    removedInodes.append(inode)
                }
                changes.invalidatedInodes.append(inode)
                leaving[directory, default: []].insert(position)
                views[directory] = place.view
            }
        }
        // 2. Directories left empty go, up to the fixed ones.
        for directory in leaving.keys { prune(directory) }
        // 3. Moved assets' files stay where they are, at their new positions.
        for move in change.moved {
            for place in Self.places(of: old[Int(move.from)]) {
                guard let directory = find(place), let shown = files.directory(of: move.from, view: place.view),
                    shown.inode == part.records[Int(directory)].inode
                else { return false }
                moves[directory, default: [:]][move.from] = move.to
                views[directory] = place.view
            }
        }
        // 4. Directories for new files.
        for position in change.added {
            for place in Self.places(of: new[Int(position)]) {
                guard let directory = make(place) else { return false }
                arrivals[directory, default: []].append(position)
                views[directory] = place.view
            }
        }
        // 5. Each touched directory's files, the new ones named as a build would name them.
        var arrived = Set<ArrivedFile>()
        for (directory, view) in views where isLive(directory) {
            arrived.formUnion(patchFiles(of: directory, view: view))
        }
        for (directory, children) in incoming { merge(children, into: directory) }
        // Unnamed directories whose subdirectories changed: their files must not take the new names.
        for directory in Set(incoming.keys).union(dropped.keys) where isLive(directory) && views[directory] == nil {
            renewReserved(of: directory)
        }

        var invalidated = Set(changes.invalidatedInodes)
        for directory in Set(dropped.keys).union(incoming.keys).union(leaving.keys).union(arrivals.keys) where isLive(directory) {
            invalidated.insert(part.records[Int(directory)].inode)
        }
        changes.invalidatedInodes = Array(invalidated)
        // A changed file that kept its directory, name and inode needs no forgotten name.
        var kept = ViewTreeChanges(invalidatedInodes: changes.invalidatedInodes)
        for (entry, inode) in zip(changes.removedEntries, removedInodes) {
            if arrived.contains(ArrivedFile(parent: entry.parent, name: entry.name, inode: inode)) { continue }
            if let position = lookup(entry.parent, entry.name), part.records[Int(position)].inode == inode { continue }
            kept.removedEntries.append(entry)
        }
        changes = kept
        return true
    }

    /// A file a patch named: where, what and which.
    private struct ArrivedFile: Hashable {
        let parent: UInt64
        let name: [UInt8]
        let inode: UInt64
    }

    // MARK: - Directories

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

    /// The existing directory for `place`.
    private func find(_ place: Place) -> Int32? {
        guard var directory = position(ofInode: place.base) else { return nil }
        for component in place.components {
            guard let child = lookup(part.records[Int(directory)].inode, component) else { return nil }
            directory = child
        }
        return directory
    }

    /// The files `directory` holds after the change, counting none for a removed directory.
    private func fileCount(of directory: Int32) -> Int {
        let count = files.directory(inode: part.records[Int(directory)].inode)?.count ?? 0
        return count - (leaving[directory]?.count ?? 0) + (arrivals[directory]?.count ?? 0)
    }

    /// Removes `directory` when it holds nothing and is not a fixed one, then its parent likewise.
    private mutating func prune(_ directory: Int32) {
        var current = directory
        while isLive(current), part.records[Int(current)].children.isEmpty, fileCount(of: current) == 0,
            part.records[Int(current)].inode >= ViewInode.firstDerived, let parent = position(ofInode: part.records[Int(current)].parent)
        {
            let node = part.records[Int(current)]
            changes.removedEntries.append(ViewEntry(parent: node.parent, name: part.names.name(node.name)))
            removedInodes.append(node.inode)
            changes.invalidatedInodes.append(node.inode)
            part.unlink(current)
            if let index = files.indexByInode[node.inode] { directories[Int(index)] = nil }
            part.records[Int(parent)].children.removeAll { $0 == current }
            dropped[parent, default: []].insert(current)
            current = parent
        }
    }

    /// The directory for `place`, made (unlisted until `merge`) where missing; nil when a
    /// file holds a name a directory needs.
    private mutating func make(_ place: Place) -> Int32? {
        guard var directory = position(ofInode: place.base) else { return nil }
        var path = place.basePath
        for component in place.components {
            path += [UInt8(ascii: "/")] + component
            let parent = part.records[Int(directory)].inode
            if let child = lookup(parent, component) {
                directory = child
                continue
            }
            // A file staying in the parent under this name: only a build renames it.
            if let shown = files.directory(inode: parent), shown.isNamed, isLive(directory),
                let holder = shown.member(named: component, in: old),
                leaving[directory]?.contains(holder) != true
            {
                return nil
            }
            let made = part.add(
                inode: ViewInode.directory(path: path), parent: directory, name: component, kind: .directory, scope: .owner, path: nil,
                listed: false)
            incoming[directory, default: []].append(made)
            directory = made
        }
        return directory
    }

    /// Inserts new subdirectories into a directory's listing at their places (by name).
    private mutating func merge(_ children: [Int32], into directory: Int32) {
        let (records, names) = (part.records, part.names)
        let precedes = { (a: Int32, b: Int32) -> Bool in names.precedes(records[Int(a)].name, records[Int(b)].name) }
        part.records[Int(directory)].children = Self.merged(children.sorted(by: precedes), into: records[Int(directory)].children, precedes)
    }

    /// `existing` (in order) with `arriving` (in order) inserted at their places.
    private static func merged(_ arriving: [Int32], into existing: [Int32], _ precedes: (Int32, Int32) -> Bool) -> [Int32] {
        var merged: [Int32] = []
        merged.reserveCapacity(existing.count + arriving.count)
        var next = 0
        for item in arriving {
            // Binary search: a large listing gets a few insertions, not a full comparison pass.
            var (low, high) = (next, existing.count)
            while low < high {
                let middle = (low + high) / 2
                if precedes(existing[middle], item) { low = middle + 1 } else { high = middle }
            }
            merged += existing[next..<low]
            merged.append(item)
            next = low
        }
        merged += existing[next...]
        return merged
    }

    // MARK: - Files

    /// The names `directory`'s files must not take: its subdirectories', those this patch
    /// makes included (they are listed only at the end).
    private func reservedNames(of directory: Int32) -> [[UInt8]] {
        (part.records[Int(directory)].children + (incoming[directory] ?? [])).map { part.name(at: $0) }
    }

    /// Gives an unnamed directory of files the subdirectory names it has after this patch.
    private mutating func renewReserved(of directory: Int32) {
        let inode = part.records[Int(directory)].inode
        guard let index = files.indexByInode[inode], let before = directories[Int(index)], before.pendingReserved != nil else { return }
        directories[Int(index)] = LibraryDirectory(
            inode: inode, view: before.view, pending: before.unorderedMembers, reserved: reservedNames(of: directory))
    }

    /// The files of an unnamed directory after the change: the members that stay (moved ones
    /// at their new positions) and the arrivals, still unnamed.
    private static func pendingMembers(
        of before: LibraryDirectory?, dropping gone: Set<Int32>, moving moved: [Int32: Int32], adding arriving: [Int32]
    )
        -> [Int32]
    {
        var members = (before?.unorderedMembers ?? []).compactMap { position -> Int32? in
            gone.contains(position) ? nil : moved[position] ?? position
        }
        members += arriving
        return members
    }

    /// Makes the files of `directory` after the change; returns the files that arrived.
    private mutating func patchFiles(of directory: Int32, view: LibraryView) -> [ArrivedFile] {
        let inode = part.records[Int(directory)].inode
        // Nil for a directory that had no files or was removed (and made again) by this patch.
        let before = files.indexByInode[inode].flatMap { directories[Int($0)] }
        let gone = leaving[directory] ?? []
        let moved = moves[directory] ?? [:]
        let arriving = arrivals[directory] ?? []
        // A directory nobody named (or a new one) stays unnamed: its names are made on first
        // use. One that was named stays named even when this patch emptied and remade it, so
        // that a file that left and came back keeps its name.
        if files.directory(inode: inode)?.isNamed != true {
            let members = Self.pendingMembers(of: before, dropping: gone, moving: moved, adding: arriving)
            let made =
                members.isEmpty && view != .all
                ? nil : LibraryDirectory(inode: inode, view: view, pending: members, reserved: reservedNames(of: directory))
            place(made, for: inode, replacing: before, view: view, moved: moved, arriving: arriving)
            return []
        }
        // Staying files, at their new positions, with their names.
        var members: [Int32] = []
        var exceptions = NameExceptions()
        if let before, gone.isEmpty, moved.isEmpty {
            // Only arrivals (a new photo): the listing and names are shared until merged.
            members = before.members(in: old)
            exceptions = before.exceptions(in: old)
        } else if let before {
            members = Self.members(of: before, dropping: gone, moving: moved, over: old)
            exceptions = before.exceptions(in: old).patched(dropping: gone, moving: moved)
        }
        // The table by name: carried over when a lookup made it (and always for a directory
        // that gets files, whose names must be checked against it).
        var table = arriving.isEmpty ? before?.madeNameTable : before?.nameTable(in: old)
        if var carried = table, let before {
            let old = self.old
            let rehash = { (position: Int32) in before.withName(of: position, in: old) { LibraryDirectory.hash($0) } }
            for position in Array(gone) + Array(moved.keys) { carried.remove(position, hash: rehash(position), rehash) }
            for (from, to) in moved { carried.insert(to, hash: rehash(from)) }
            table = carried
        }
        var arrived: [ArrivedFile] = []
        let new = self.new
        if !arriving.isEmpty {
            let byName = view.listsByName
            let ordered = arriving.sorted { LibraryNaming.precedes($0, $1, view: view, in: new) }
            let candidates = ordered.map { position -> ViewNaming.Candidate in
                let id = new[Int(position)].id
                let previous = removedNames[ViewInode.libraryFile(view: view, asset: id)].flatMap { $0.parent == inode ? $0.name : nil }
                return ViewNaming.Candidate(base: ViewNaming.sanitized(new[Int(position)].path.fileName), id: id, previous: previous)
            }
            // The table holds the staying files at their new positions: names read over `new`.
            let staying = { (position: Int32, wanted: [UInt8]) -> Bool in
                (exceptions.name(of: position, in: new) ?? LibraryNaming.fileName(position, in: new)) == wanted
            }
            let names = ViewNaming.assign(candidates) { name in
                if lookup(inode, name) != nil { return true }
                guard let table else { return false }
                return name.withUnsafeBufferPointer { table.find(hash: LibraryDirectory.hash($0)) { staying($0, name) } } != nil
            }
            for (index, position) in ordered.enumerated() {
                let name = names[index]
                let isFileName = new[Int(position)].path.withBytes {
                    LibraryColumns.lastComponentInPlace(of: $0).elementsEqual(name)
                }
                if !isFileName {
                    exceptions.set(name, of: position, fileName: LibraryNaming.fileName(position, in: new), id: new[Int(position)].id)
                }
                let fileInode = ViewInode.libraryFile(view: view, asset: new[Int(position)].id)
                arrived.append(ArrivedFile(parent: inode, name: name, inode: fileInode))
                if var grown = table {
                    if grown.isFull {
                        grown.grow { candidate in
                            (exceptions.name(of: candidate, in: new) ?? LibraryNaming.fileName(candidate, in: new)).withUnsafeBufferPointer
                            {
                                LibraryDirectory.hash($0)
                            }
                        }
                    }
                    name.withUnsafeBufferPointer { grown.insert(position, hash: LibraryDirectory.hash($0)) }
                    table = grown
                }
            }
            let nameOf = { (position: Int32) -> [UInt8] in
                exceptions.name(of: position, in: new) ?? LibraryNaming.fileName(position, in: new)
            }
            let precedes = { (a: Int32, b: Int32) -> Bool in
                byName ? ViewNaming.precedes(nameOf(a), nameOf(b)) : LibraryNaming.precedes(a, b, view: view, in: new)
            }
            members = Self.merged(ordered.sorted(by: precedes), into: members, precedes)
        }
        let made =
            members.isEmpty && view != .all
            ? nil : LibraryDirectory(inode: inode, view: view, members: members, exceptions: exceptions, byName: table)
        place(made, for: inode, replacing: before, view: view, moved: moved, arriving: arriving)
        return arrived
    }

    /// Puts `made` (nil: the directory holds no files now) in place of `before` and points the
    /// moved and arriving files' positions at it.
    private mutating func place(
        _ made: LibraryDirectory?, for inode: UInt64, replacing before: LibraryDirectory?, view: LibraryView, moved: [Int32: Int32],
        arriving: [Int32]
    ) {
        let index: Int32
        if let existing = files.indexByInode[inode], before != nil {
            index = existing
        } else {
            index = Int32(directories.count)
            directories.append(nil)
        }
        directories[Int(index)] = made
        if view != .all, made != nil {
            for (_, to) in moved { directoryOf[Int(view.rawValue) - 1][Int(to)] = index }
            for position in arriving { directoryOf[Int(view.rawValue) - 1][Int(position)] = index }
        }
    }

    /// `directory`'s members without `gone`, those in `moved` at their new positions: each
    /// found by binary search in listing order (a few changes in a directory of a million
    /// files cost a few moves of the array, not a pass over it with a lookup per member).
    private static func members(
        of directory: LibraryDirectory, dropping gone: Set<Int32>, moving moved: [Int32: Int32], over old: ChunkedArray<Asset>
    ) -> [Int32] {
        let listed = directory.members(in: old)
        var members = listed
        let precedes = { (a: Int32, b: Int32) -> Bool in
            if directory.view.listsByName {
                return directory.withName(of: a, in: old) { x in directory.withName(of: b, in: old) { y in NameArena.precedes(x, y) } }
            }
            return LibraryNaming.precedes(a, b, view: directory.view, in: old)
        }
        let index = { (position: Int32) -> Int? in
            var (low, high) = (0, listed.count)
            while low < high {
                let middle = (low + high) / 2
                if precedes(listed[middle], position) { low = middle + 1 } else { high = middle }
            }
            if low < listed.count, listed[low] == position { return low }
            // Not where the order puts it: look through the listing.
            return listed.firstIndex(of: position)
        }
        // Every place is found before anything changes: the order is read over the old assets.
        let movedPlaces = moved.compactMap { move in index(move.key).map { ($0, move.value) } }
        let gonePlaces = gone.compactMap(index).sorted(by: >)
        for (place, to) in movedPlaces { members[place] = to }
        for place in gonePlaces { members.remove(at: place) }
        return members
    }
}
