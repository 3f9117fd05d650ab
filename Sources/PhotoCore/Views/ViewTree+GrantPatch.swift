import SystemKit

extension ViewTree {
    /// This tree with other apps and grants over the same assets, and what the kernel must
    /// forget. An app whose settings are the same and whose grants only lost some assets
    /// and gained others at the end (a `select`, a `deselect`, an expiry) has its part
    /// patched: the files that left are unlinked, the new ones added after the others, and
    /// the invalidations come from that delta. Every other changed app's part is built again
    /// and compared with its old one (`replacingAccess`); unchanged parts are shared.
    ///
    /// A patched part equals the part a build would make (same names, same inodes, same
    /// order), so this is `replacingAccess` followed by `changes(to:)` at the cost of the
    /// change rather than of the app's grants.
    public func applyingAccess(
        apps: [String: App], grants: [String: [Grant]], filters: some AppFilterResolving, now: Int64 = SystemClock.wallNanoseconds()
    ) -> (tree: ViewTree, changes: ViewTreeChanges) {
        var snapshot = self.snapshot
        snapshot.apps = apps
        snapshot.grants = grants
        var reusing: [String: ViewPart] = [:]
        var patched = ViewTreeChanges()
        var patchedNames = Set<String>()
        for entry in self.apps {
            guard let app = apps[entry.name], app == self.snapshot.apps[entry.name] else { continue }
            let old = self.snapshot.grants[entry.name] ?? []
            let new = grants[entry.name] ?? []
            // Untouched apps' lists are the same arrays: this is an identity check for them.
            if old == new {
                reusing[entry.name] = entry.part
                continue
            }
            guard let delta = GrantDelta(app: app, old: old, new: new, now: now) else { continue }
            let (part, changes) = patchApp(entry.part, app: app, delta: delta, filters: filters)
            reusing[entry.name] = part
            patchedNames.insert(entry.name)
            patched.removedEntries += changes.removedEntries
            patched.invalidatedInodes += changes.invalidatedInodes
        }
        let tree = Self.assemble(
            snapshot: snapshot, library: library, files: files, firstByID: firstByID, reusing: reusing, previous: self, filters: filters)
        var changes = appChanges(to: tree, skipping: patchedNames)
        changes.removedEntries += patched.removedEntries
        changes.invalidatedInodes += patched.invalidatedInodes
        return (tree, changes)
    }

    /// `part` (the app's part in this tree) after `delta`, and its invalidations: each file
    /// that left (its name and inode), and the app's directory when its listing changed.
    private func patchApp(_ part: ViewPart, app: App, delta: GrantDelta, filters: any AppFilterResolving) -> (ViewPart, ViewTreeChanges) {
        let assets = snapshot.assets
        let visibility = AppVisibility(app, filters: filters)
        var others = [library]
        for entry in self.apps where entry.part !== part { others.append(entry.part) }
        var builder = ViewPartBuilder(continuing: part) { inode in
            let hash = NodeTable.hash(inode: inode)
            return others.contains { $0.position(of: inode, hash: hash) != nil }
        }
        let directory = part.top
        let directoryPath = Array("apps/".utf8) + Array(app.name.utf8)
        var changes = ViewTreeChanges()

        // The files of revoked assets the app was shown (no other revoked asset has one).
        var leaving = Set<Int32>()
        for id in delta.removed {
            guard let index = firstByID.position(of: id, in: assets), visibility.shows(assets[Int(index)]),
                let position = fileNode(of: index, id: id, in: part, app: app, directoryPath: directoryPath)
            else { continue }
            leaving.insert(position)
        }
        for position in leaving.sorted() {
            let node = part.nodes[Int(position)]
            changes.removedEntries.append(ViewEntry(parent: directory.inode, name: node.name))
            changes.invalidatedInodes.append(node.inode)
            builder.unlink(position)
        }
        if !leaving.isEmpty { builder.records[0].children.removeAll { leaving.contains($0) } }

        // The new members the app is shown, in selection order, after the files it keeps.
        var arriving: [Int32] = []
        for id in delta.added {
            guard let index = firstByID.position(of: id, in: assets), visibility.shows(assets[Int(index)]) else { continue }
            arriving.append(index)
        }
        Self.append(arriving, to: &builder, app: app, directory: directory.inode, path: directoryPath, assets: assets)
        if !leaving.isEmpty || !arriving.isEmpty { changes.invalidatedInodes.append(directory.inode) }
        return (builder.finish(), changes)
    }

    /// Adds the files of `members` (asset positions) after the directory's other files,
    /// named as a build names them (`ViewPartBuilder.addFiles`: the plain name when free,
    /// else a suffixed one), the names already there found in the part's table rather than
    /// collected from the whole listing.
    private static func append(
        _ members: [Int32], to builder: inout ViewPartBuilder, app: App, directory: UInt64, path: [UInt8], assets: ChunkedArray<Asset>
    ) {
        guard !members.isEmpty else { return }
        let prefix = ViewInode.filePrefix(directoryPath: path)
        let convertedPrefix = ViewInode.compatibleFilePrefix(directoryPath: path, quality: app.quality)
        let converted = FileRepresentation.compatibleJPEG(quality: UInt8(clamping: app.quality))
        var forms: [(inode: UInt64, representation: FileRepresentation)] = []
        let candidates = members.map { index -> ViewNaming.Candidate in
            let id = assets[Int(index)].id
            let converts = app.representation != .original && app.representation.servesJPEG(for: assets[Int(index)].metadata.format)
            forms.append((ViewInode.file(in: converts ? convertedPrefix : prefix, asset: id), converts ? converted : .original))
            var base = ViewNaming.sanitized(assets[Int(index)].path.fileName)
            if converts { base = ViewNaming.jpegName(base) }
            return ViewNaming.Candidate(base: base, id: id, previous: nil)
        }
        let names = Self.names(for: candidates, besides: builder, in: directory)
        for (position, index) in members.enumerated() {
            _ = builder.add(
                inode: forms[position].inode, parent: 0, name: names[position],
                kind: .file(asset: index, policy: app.locationPolicy, metadata: app.metadataPolicy), scope: .app(app.name),
                representation: forms[position].representation, path: nil)
        }
    }

    /// The position in `part` of the file node serving the asset at `index` (id `id`): found
    /// by the inode it was given unless a clash moved that number, then by its listing.
    private func fileNode(of index: Int32, id: AssetID, in part: ViewPart, app: App, directoryPath: [UInt8]) -> Int32? {
        let format = snapshot.assets[Int(index)].metadata.format
        let converts = app.representation != .original && app.representation.servesJPEG(for: format)
        let prefix =
            converts
            ? ViewInode.compatibleFilePrefix(directoryPath: directoryPath, quality: app.quality)
            : ViewInode.filePrefix(directoryPath: directoryPath)
        let inode = ViewInode.file(in: prefix, asset: id)
        let serves = { (position: Int32) -> Bool in
            if case .file(let asset, _, _) = part.nodes[Int(position)].kind { return asset == index }
            return false
        }
        if let position = part.position(of: inode, hash: NodeTable.hash(inode: inode)), serves(position) { return position }
        return part.top.children.first(where: serves)
    }

    /// `ViewNaming.assign` for files new to `directory`, beside the names `part` has there.
    private static func names(for candidates: [ViewNaming.Candidate], besides part: ViewPartBuilder, in directory: UInt64) -> [[UInt8]] {
        ViewNaming.assign(candidates) { name in
            part.entryTable.find(hash: NodeTable.hash(parent: directory, name: name)) { position in
                let record = part.records[Int(position)]
                return record.parent == directory && part.names.name(record.name, equals: name)
            } != nil
        }
    }
}

/// How an app's grant list changed, when it changed by what a patch can apply: some assets
/// left (anywhere) and others came after the rest, the kept ones staying in order. Nil for
/// anything else (a reorder, an app with rules or exclusions, a grant that has expired by
/// `now`), which is built again instead.
struct GrantDelta {
    /// Assets no longer granted.
    var removed: [AssetID] = []
    /// Assets newly granted, in selection order (all after the kept ones).
    var added: [AssetID] = []

    init?(app: App, old: [Grant], new: [Grant], now: Int64) {
        // Rules add members in capture-date order and exclusions carve them out: a change
        // there is not an append.
        guard app.rules.isEmpty, app.exclusions.isEmpty else { return nil }
        // A build at `now` leaves out what has expired by then; the part being patched may
        // still show it.
        guard !new.contains(where: { $0.terms.hasExpired(at: now) }) else { return nil }
        var prefix = 0
        while prefix < old.count, prefix < new.count, old[prefix].asset == new[prefix].asset { prefix += 1 }
        let oldRest = old[prefix...]
        let newRest = new[prefix...]
        let oldIDs = Set(oldRest.lazy.map(\.asset))
        let newIDs = Set(newRest.lazy.map(\.asset))
        var kept = newRest.startIndex
        for grant in oldRest {
            if newIDs.contains(grant.asset) {
                // A kept asset must come next in the new list: otherwise the order changed.
                guard kept < newRest.endIndex, newRest[kept].asset == grant.asset else { return nil }
                kept += 1
            } else {
                removed.append(grant.asset)
            }
        }
        for grant in newRest[kept...] {
            guard !oldIDs.contains(grant.asset) else { return nil }
            added.append(grant.asset)
        }
    }
}
