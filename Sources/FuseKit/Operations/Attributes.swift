import CFuse
import Glibc
import PhotoCore

/// GETATTR and SETATTR, and the attributes every reply carries: ownership and mode bits
/// come from the view layer (`ViewLayer.attributes`, which restates the access model), the
/// kernel-only parts (timeouts, `.picker`'s rendering inodes) from here.
///
/// When other users may enter, the entries of `apps/` differ by caller (a bound uid sees
/// only its own app) while the kernel's name and attribute caches serve every caller
/// alike: they are not cached at all, so each walk asks the daemon as this caller.
extension PhotoFileSystem {
    /// GETATTR: the layer decides which node answers (`ViewLayer.attributedNode`: EACCES
    /// for an inode that left the tree, ENOENT for one this caller may not see).
    func getattr(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>? = nil) {
        // Attributes made from views that changed meanwhile are dropped again (see `lookup`).
        let epoch = invalidator.epoch
        defer { invalidator.redo(since: epoch) { ViewTreeChanges(invalidatedInodes: [inode]) } }
        respond(request, "getattr") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            if tree.node(inode: Self.treeInode(inode)) == nil, let special = layer.specialFile(inode: inode, in: tree) {
                try layer.checkSpecial(special, caller: try caller(of: request, in: tree), in: tree)
                return .attributes(specialAttributes(special, in: tree), timeout: 0)
            }
            let node = try layer.attributedNode(Self.treeInode(inode), caller: try caller(of: request, in: tree), in: tree)
            let text = node.kind == .picker ? try pickerText(inode) : nil
            return .attributes(attributes(of: node, in: tree, picker: text), timeout: attributeTimeout(of: node))
        }
    }

    /// ACCESS (sent when the mount has no `default_permissions`): write access is refused
    /// everywhere but `.picker`, so `test -w` tells the truth about a read-only view.
    func access(_ request: fuse_req_t, _ inode: UInt64, _ mask: Int32) {
        respond(request, "access") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            if tree.node(inode: inode) == nil, let special = layer.specialFile(inode: inode, in: tree) {
                try layer.checkSpecial(special, caller: try caller(of: request, in: tree), in: tree)
                return .done
            }
            let caller = try caller(of: request, in: tree)
            let node = try visibleNode(inode, in: tree, to: caller)
            if mask & W_OK != 0 {
                guard node.kind == .picker else { throw .readOnly }
                guard caller == .owner else { throw .permissionDenied }
            }
            return .done
        }
    }

    /// Only `.picker` accepts a truncation to 0 (what `echo > .picker` sends without
    /// atomic O_TRUNC); everything else is read-only.
    func setattr(_ request: fuse_req_t, _ inode: UInt64, _ wanted: UnsafeMutablePointer<stat>?, _ fields: Int32) {
        respond(request, "setattr") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            if tree.node(inode: inode) == nil, let special = layer.specialFile(inode: inode, in: tree) {
                // Only the truncation of `echo > FILE`; the size reported is 0 so that the
                // kernel does not read the page back before the write (which would wait).
                try layer.checkSpecial(special, caller: try caller(of: request, in: tree), in: tree)
                guard fields & FUSE_SET_ATTR_SIZE == 0 || wanted?.pointee.st_size == 0 else { throw .readOnly }
                return .attributes(specialAttributes(special, in: tree, truncated: true), timeout: 0)
            }
            let caller = try caller(of: request, in: tree)
            let node = try visibleNode(inode, in: tree, to: caller)
            guard node.kind == .picker,
                fields & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_CTIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW) == 0,
                fields & FUSE_SET_ATTR_SIZE == 0 || wanted?.pointee.st_size == 0
            else { throw .readOnly }
            guard caller == .owner else { throw .permissionDenied }
            return .attributes(attributes(of: node, in: tree, picker: try pickerText(inode)), timeout: 0)
        }
    }

    /// The `stat` of a node: exact size and mtime of the source for files; for `.picker`,
    /// those of the rendering `picker` (the current one when not given).
    func attributes(of node: ViewNode, in tree: ViewTree, picker: PickerGenerations.Text? = nil) -> stat {
        var status = stat()
        status.st_gid = configuration.ownerGID
        status.st_blksize = 1 << 17
        status.st_atim = startTime
        status.st_mtim = startTime
        status.st_ctim = startTime
        if node.kind == .picker {
            // The size and times of the rendering the caller reads, one inode each.
            let text = picker ?? currentPickerText()
            status.st_ino = __ino_t(text.inode)
            status.st_uid = configuration.othersMayEnter ? tree.boundUID(of: node) ?? configuration.ownerUID : configuration.ownerUID
            status.st_mode = S_IFREG | 0o600
            status.st_nlink = 1
            status.st_size = text.bytes.count
            status.st_mtim = controlTime(text)
            status.st_ctim = status.st_mtim
            return status
        }
        let attributes = layer.attributes(of: node, in: tree)
        status.st_ino = __ino_t(attributes.inode)
        status.st_uid = attributes.uid
        status.st_mode = (attributes.kind == .directory ? S_IFDIR : S_IFREG) | mode_t(attributes.permissions)
        // glibc sizes a directory stream's buffer by st_blksize (up to 1 MiB) and the kernel
        // asks for listing chunks that large (up to max_pages, 1 MiB here): a folder of
        // 100,000 names then comes in about 17 READDIRPLUS replies rather than 130.
        if attributes.kind == .directory { status.st_blksize = 1 << 20 }
        status.st_nlink = attributes.kind == .directory ? 2 : 1
        if attributes.kind == .file {
            status.st_size = Int(attributes.size)
            status.st_blocks = Int((attributes.size &+ 511) / 512)
            status.st_atim = Self.fileTime(nanoseconds: attributes.changed ?? 0)
        }
        if let changed = attributes.changed {
            status.st_mtim = Self.fileTime(nanoseconds: changed)
            status.st_ctim = status.st_mtim
        }
        return status
    }

    /// Nanoseconds since 1970 as a `timespec` (floored, so times before 1970 work too).
    static func fileTime(nanoseconds: Int64) -> Glibc.timespec {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds - seconds * 1_000_000_000))
    }

    /// How long the kernel may trust a node's attributes: never for `.picker` (a write
    /// through it changes its size in the kernel) nor for what differs by caller (see the
    /// type's comment), long for everything else (changes are pushed).
    func attributeTimeout(of node: ViewNode) -> Double {
        node.kind == .picker || differsByCaller(node) ? 0 : configuration.cacheTimeout
    }

    /// Whether other callers may get another answer for this node's name: the apps under
    /// `apps/`, when other users may enter.
    func differsByCaller(_ node: ViewNode) -> Bool {
        configuration.othersMayEnter && node.parent == ViewInode.apps
    }

    /// A LOOKUP/READDIRPLUS entry for a node; for `.picker`, for its rendering `picker`
    /// (the kernel must ask again on every walk, to get the newest one).
    func entry(for node: ViewNode, in tree: ViewTree, picker: PickerGenerations.Text? = nil) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = node.inode
        entry.generation = 0
        entry.attr = attributes(of: node, in: tree, picker: picker)
        entry.attr_timeout = attributeTimeout(of: node)
        entry.entry_timeout = differsByCaller(node) ? 0 : configuration.cacheTimeout
        if node.kind == .picker {
            entry.ino = UInt64(entry.attr.st_ino)
            entry.generation = picker?.generation ?? 0
            entry.entry_timeout = 0
        }
        return entry
    }
}
