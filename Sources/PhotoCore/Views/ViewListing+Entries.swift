/// What a plain READDIR needs of a listing, read in place: the FUSE adapter pages through
/// tens of thousands of names per second, and copying each node (its name and children
/// arrays retained and released) or looking each one up again by inode (a random probe
/// into the inode table) cost more than the kernel's part of the listing.
extension ViewListing {
    /// Whether `tree` lists directory `inode` from the same stored part (and, for a
    /// directory of the library views, the same files) as this listing: parts are immutable
    /// and a change makes a new one, so then every child this listing gives is, unchanged,
    /// the node `tree` gives at the same position. Decided without making `tree`'s listing,
    /// which for a folder holding both files and subfolders merges their names: READDIR
    /// asks this for every page.
    public func readsSameNodes(as tree: ViewTree, of inode: UInt64) -> Bool {
        guard let (part, position) = tree.location(of: inode) else { return false }
        switch source {
        case .part(let listed, let directory):
            return listed === part && directory == position && (part !== tree.library || tree.files.directory(inode: inode) == nil)
        case .library(let listing):
            return listing.part === part && listing.position == position && tree.files.directory(inode: inode) === listing.files
        case .apps:
            return false
        }
    }

    /// Calls `body` with the inode, name bytes and kind of each child from `position` on,
    /// read in place (no copy of a node, the name valid only during the call), until `body`
    /// returns false or the listing ends.
    public func forEachEntry(
        from position: Int, _ body: (_ inode: UInt64, _ name: UnsafeBufferPointer<UInt8>, _ kind: ViewNodeKind) -> Bool
    ) {
        guard position >= 0 else { return }
        switch source {
        case .part(let part, let directory):
            // One copy of the children array for the whole page, not one read of the
            // directory's node per entry.
            let children = part.records[Int(directory)].children
            let (records, names) = (part.records, part.names)
            for next in children.indices.dropFirst(position) {
                let child = Int(children[next])
                let going = names.withName(records[child].name) { name in body(records[child].inode, name, records[child].kind) }
                if !going { return }
            }
        case .library(let listing):
            if listing.count >= ListedEntries.smallest, let entries = listing.laidOut.entries(orMake: { ListedEntries(listing) }) {
                entries.forEach(from: position, records: listing.part.records, body)
                return
            }
            let (records, names, files, named, assets) = (
                listing.part.records, listing.part.names, listing.files, listing.named, listing.assets
            )
            // Each file's id and name are read from its asset and its path's buffer, two cache
            // misses apart from the previous file's: the ids and the names' lengths of a
            // batch are read first, in a loop of independent loads the processor overlaps,
            // so that the loop calling `body` finds them cached.
            let batch = 32
            var inodes = [UInt64](repeating: 0, count: batch)
            var first = position
            while first < listing.count {
                let end = min(first + batch, listing.count)
                var touched = 0
                for index in first..<end {
                    if case .file(let asset) = listing.entry(at: index) {
                        inodes[index - first] = ViewInode.libraryFile(view: files.view, asset: assets[Int(asset)].id)
                        touched &+= assets[Int(asset)].path.withBytes { Int($0.first ?? 0) }
                    }
                }
                // Keeps the loads of the lengths from being dropped as unused.
                if touched < 0 { return }
                for index in first..<end {
                    let going: Bool
                    switch listing.entry(at: index) {
                    case .directory(let child):
                        going = names.withName(records[Int(child)].name) { name in
                            body(records[Int(child)].inode, name, records[Int(child)].kind)
                        }
                    case .file(let asset):
                        let kind = ViewNodeKind.file(asset: asset, policy: .keep, metadata: .keep)
                        going = named.withName(of: asset, in: assets) { name in body(inodes[index - first], name, kind) }
                    }
                    if !going { return }
                }
                first = end
            }
        case .apps(let apps):
            for app in apps.dropFirst(position) {
                let top = app.part.top
                if !top.name.withUnsafeBufferPointer({ body(top.inode, $0, top.kind) }) { return }
            }
        }
    }
}
