import CFuse
import PhotoCore
import SystemKit

/// OPENDIR, READDIR, READDIRPLUS, RELEASEDIR.
///
/// A private mount (no other user may enter, so every caller is the owner) answers OPENDIR
/// with ENOSYS (`FUSE_CAP_NO_OPENDIR_SUPPORT`): the kernel then opens every directory by
/// itself, never sends OPENDIR or RELEASEDIR again, and caches every listing it reads
/// (its no-open default is `FOPEN_KEEP_CACHE | FOPEN_CACHE_DIR`), so a repeated walk of
/// thousands of folders costs no round trip per folder. There is no handle then: a
/// READDIR cookie is the position after an entry in the current views' listing of the
/// directory (kept between pages by `DirectoryListings` while the views list it from the
/// same nodes), and a change between two pages of one listing may make it skip or repeat
/// names, never loop (cookies only grow). A change drops the kernel's cached listing
/// (`Invalidator`: its pages go, and its attributes, so the next listing from the start
/// asks GETATTR and a changed directory time resets even a cached empty listing).
///
/// When other users may enter, the root and `apps/` list only what the caller may see, so
/// the kernel must not cache them for everybody: OPENDIR is answered and decides per open.
/// Then a cookie is the position after an entry in the listing the directory was opened on
/// (see `OpenDirectory`), so it stays valid for the whole open. Listings of directories
/// whose content does not depend on the caller are cached by the kernel (`cache_readdir`
/// + `keep_cache`) until a snapshot change invalidates them; the root and `apps/` are
/// never cached.
extension PhotoFileSystem {
    func opendir(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "opendir", info: info) { () throws(ViewLayerError) -> Reply in
            // Once: the kernel opens every later directory without asking.
            if directoriesWithoutOpen.load(ordering: .relaxed) { throw .notImplemented }
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let (node, listing) = try layer.openDirectory(inode, caller: caller, in: tree)
            // An empty listing is never put in the kernel's readdir cache here: the kernel
            // answers EOF from an empty cache before it notices its pages were invalidated,
            // and only a new directory time makes it ask again (see the type's comment).
            let cacheable = node.scope != .shared && (listing?.count ?? 0) > 0
            let handle = Handle(.directory(OpenDirectory(listing: listing, inode: inode, caller: caller)))
            return .open(handle, keepCache: cacheable, directIO: false, cacheReaddir: cacheable)
        }
    }

    func readdir(
        _ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?, plus: Bool
    ) {
        // Read before the views: a listing made from views a change replaced is not kept,
        // and entries with attributes made from them are dropped again (see `lookup`).
        let epoch = invalidator.epoch
        var madeEntries: (() -> ViewTreeChanges)?
        defer { if let madeEntries { invalidator.redo(since: epoch, madeEntries) } }
        respond(request, "readdir") { () throws(ViewLayerError) -> Reply in
            guard offset >= 0 else { throw .invalidArgument }
            let current: ViewTree
            let listing: ViewListing?
            let caller: ViewCaller
            // Whether the listing reads the current views' own nodes.
            let unchanged: Bool
            if let number = info?.pointee.fh, let handle = Handle.borrow(number), case .directory(let directory) = handle.kind {
                current = self.tree
                listing = directory.listing(at: offset, current: current)
                caller = directory.caller
                unchanged = listing?.readsSameNodes(as: current, of: inode) ?? false
            } else {
                guard directoriesWithoutOpen.load(ordering: .relaxed) else { throw .unexpected("readdir without an open directory") }
                current = self.tree
                caller = try self.caller(of: request, in: current)
                // The owner sees every node; anyone else only what the views show them.
                if caller != .owner {
                    let node = try layer.visibleNode(inode, in: current, to: caller)
                    guard node.isDirectory else { throw .notDirectory }
                }
                guard let made = invalidator.listings.listing(of: inode, in: current, epoch: epoch) else { throw .notFound }
                listing = made
                unchanged = true
            }
            let buffer = buffers.buffer(atLeast: size)
            var capacity = min(size, buffer.count)
            var used = 0
            // Which READDIRPLUS chunks carry attributes: see `StatWalkers`.
            var attributed = plus
            if plus, offset == 0 {
                capacity = min(capacity, StatWalkers.firstChunkBytes)
            } else if plus {
                attributed = statWalkers.wantsAttributes(tid: fuse_req_ctx(request)?.pointee.pid ?? 0, directory: inode)
            }
            // The owner sees every node, and a listing that reads the current views' own
            // nodes needs no second look at each: names, inodes and types are read in place.
            // A compatible JPEG the decoder refused is withheld: such a listing takes the
            // path below, which leaves it out.
            let refusals = !(layer.representations?.refusals().isEmpty ?? true)
            if !attributed, caller == .owner, unchanged, !refusals, let listing {
                var next = offset + 1
                listing.forEachEntry(from: offset) { inode, name, kind in
                    // A pattern, not `==`: the derived equality of the kind costs a call per name.
                    var shown = inode
                    if case .picker = kind { shown = currentPickerText().inode }
                    let needed = addPlainEntry(
                        request, buffer, at: used, capacity: capacity, name, inode: shown, kind: kind, next: next, plus: plus)
                    guard needed <= capacity - used else { return false }
                    used += needed
                    next += 1
                    return true
                }
                return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
            }
            // Entries come from the layer's page: only what the caller may see in the
            // current views, with current attributes (for the owner reading unchanged nodes,
            // straight from the listing).
            let page: ((ViewNode, Int) -> Bool) -> Void = { add in
                if caller == .owner, unchanged, let listing {
                    var position = offset
                    while let child = listing.child(at: position) {
                        position += 1
                        if self.layer.isWithheldRepresentation(child, in: current) { continue }
                        if !add(child, position) { return }
                    }
                } else {
                    self.layer.page(listing, from: offset, caller: caller, current: current, add)
                }
            }
            var added = 0
            page { child, position in
                let needed: Int
                if attributed {
                    needed = child.withName {
                        $0.withCString { name -> Int in
                            let space = buffer.baseAddress.map { $0 + used }?.assumingMemoryBound(to: CChar.self)
                            let picker = child.kind == .picker ? currentPickerText() : nil
                            var entry = entry(for: child, in: current, picker: picker)
                            let needed = fuse_add_direntry_plus(request, space, capacity - used, name, &entry, off_t(position))
                            // The kernel holds the entry (a lookup) only if it fit.
                            if let picker, needed <= capacity - used { controlFile.generations.retain(picker) }
                            return needed
                        }
                    }
                } else {
                    let shown = child.kind == .picker ? currentPickerText().inode : child.inode
                    needed = child.withName { name in
                        addPlainEntry(
                            request, buffer, at: used, capacity: capacity, name, inode: shown, kind: child.kind, next: position, plus: plus)
                    }
                }
                if needed > capacity - used { return false }
                used += needed
                added += 1
                return true
            }
            if attributed, added > 0 {
                // The same walk again, for the names and inodes this reply gave the kernel.
                madeEntries = { [added] in
                    var changes = ViewTreeChanges()
                    page { child, _ in
                        guard changes.invalidatedInodes.count < added else { return false }
                        child.withName { changes.removedEntries.append(ViewEntry(parent: inode, name: Array($0))) }
                        changes.invalidatedInodes.append(child.inode)
                        return true
                    }
                    return changes
                }
            }
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<used]))
        }
    }

    /// Writes one entry without attributes (name, inode, type; the next entry's offset) at
    /// `used` in `buffer` if it fits in `capacity`; returns the bytes it takes (more than is
    /// left when it did not fit, and then nothing was written). In a READDIRPLUS reply
    /// (`plus`) it is an entry of node 0, which the kernel takes as a plain name.
    private func addPlainEntry(
        _ request: fuse_req_t, _ buffer: UnsafeMutableRawBufferPointer, at used: Int, capacity: Int, _ name: UnsafeBufferPointer<UInt8>,
        inode: UInt64, kind: ViewNodeKind, next: Int, plus: Bool = false
    ) -> Int {
        guard let base = buffer.baseAddress, let bytes = name.baseAddress else { return Int.max }
        let space = (base + used).assumingMemoryBound(to: CChar.self)
        let mode: UInt32
        if case .directory = kind { mode = UInt32(S_IFDIR) } else { mode = UInt32(S_IFREG) }
        return plus
            ? photofs_name_only_plus_entry(space, capacity - used, bytes, name.count, inode, mode, UInt64(next))
            : photofs_name_entry(space, capacity - used, bytes, name.count, inode, mode, UInt64(next))
    }

    func releasedir(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "releasedir") { () throws(ViewLayerError) -> Reply in
            if let number = info?.pointee.fh { Handle.release(number) }
            return .done
        }
    }
}

extension Array where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string (names hold no NUL).
    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeBufferPointer { $0.withCString(body) }
    }
}

extension UnsafeBufferPointer where Element == UInt8 {
    /// Calls `body` with the bytes as a NUL-terminated C string (names hold no NUL).
    func withCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: count + 1) { buffer in
            for index in 0..<count { buffer[index] = CChar(bitPattern: self[index]) }
            buffer[count] = 0
            return body(UnsafePointer(buffer.baseAddress!))
        }
    }
}
