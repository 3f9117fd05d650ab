import CFuse
import PhotoCore
import SystemKit

/// GETATTR and SETATTR, and the attributes every reply carries: ownership and mode bits
/// come from the view layer (`ViewLayer.attributes`, which restates the access model), the
/// kernel-only parts (timeouts, `.picker`'s rendering inodes) from here.
///
/// When other users may enter, the entries of `apps/` differ by caller (a bound uid sees
/// only its own app) while the kernel's name and attribute caches serve every caller
/// alike: they are not cached at all, so each walk asks the daemon as this caller.
extension PhotoFileSystem {
    /// GETATTR: the layer answers (`ViewLayer.getattr`: EACCES for an inode that left the
    /// tree, ENOENT for a request file this caller may not see); a `.picker` inode has the
    /// size and times of the rendering it stands for.
    func getattr(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>? = nil) {
        // Attributes made from views that changed meanwhile are dropped again (see `lookup`).
        let epoch = invalidator.epoch
        defer { invalidator.redo(since: epoch) { ViewTreeChanges(invalidatedInodes: [inode]) } }
        respond(request, "getattr") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let text = PickerGenerations.isPicker(inode) ? try pickerText(inode) : nil
            let attributes = try layer.getattr(
                Self.treeInode(inode), caller: caller, in: tree, now: RequestFiles.now(), rendering: text?.bytes)
            return .attributes(status(of: attributes, picker: text), timeout: attributeTimeout(of: attributes, in: tree))
        }
    }

    /// ACCESS (sent when the mount has no `default_permissions`): `ViewLayer.access`.
    func access(_ request: fuse_req_t, _ inode: UInt64, _ mask: Int32) {
        respond(request, "access") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            try layer.access(Self.treeInode(inode), write: mask & W_OK != 0, caller: try caller(of: request, in: tree), in: tree)
            return .done
        }
    }

    /// SETATTR: `ViewLayer.setattr` (only the truncation to 0 of `echo > FILE`, which the
    /// kernel sends without atomic O_TRUNC, on `.picker` and the request files).
    func setattr(_ request: fuse_req_t, _ inode: UInt64, _ wanted: UnsafeMutablePointer<stat>?, _ fields: Int32) {
        respond(request, "setattr") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            let times = FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_CTIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW
            let change = ViewLayer.AttributeChange(
                size: fields & FUSE_SET_ATTR_SIZE != 0 ? Int64(wanted?.pointee.st_size ?? -1) : nil,
                beyondSizeAndTimes: fields & ~times != 0)
            let caller = try caller(of: request, in: tree)
            let attributes = try layer.setattr(Self.treeInode(inode), change, caller: caller, in: tree, now: RequestFiles.now())
            let text = PickerGenerations.isPicker(inode) ? try pickerText(inode) : nil
            return .attributes(status(of: attributes, picker: text), timeout: 0)
        }
    }

    /// The `stat` of a node: exact size and mtime of the source for files; for `.picker`,
    /// those of the rendering `picker` (the current one when not given).
    func attributes(of node: ViewNode, in tree: ViewTree, picker: PickerGenerations.Text? = nil) -> stat {
        let text = node.kind == .picker ? picker ?? currentPickerText() : nil
        return status(of: layer.attributes(of: node, in: tree, pickerSize: text.map { Int64($0.bytes.count) }), picker: text)
    }

    /// The `stat` of what the layer answered: `.picker` (`picker` given) has the inode and
    /// times of its rendering, a request file a new mtime on every call (so a read always
    /// refetches it) and, while a read waits for an answer, a size large enough that the
    /// kernel sends the READ (it trims the file at the end of the short reply).
    func status(of attributes: ViewAttributes, picker: PickerGenerations.Text?) -> stat {
        var status = stat()
        status.st_ino = __ino_t(attributes.inode)
        status.st_uid = attributes.uid
        status.st_gid = configuration.ownerGID
        status.st_blksize = 1 << 17
        status.st_atim = startTime
        status.st_mtim = startTime
        status.st_ctim = startTime
        status.st_nlink = attributes.kind == .directory ? 2 : 1
        switch attributes.kind {
        case .control:
            status.st_mode = mode_t(S_IFREG) | mode_t(attributes.permissions)
            status.st_size = Int(attributes.size)
            if let picker {
                // The size and times of the rendering the caller reads, one inode each.
                status.st_ino = __ino_t(picker.inode)
                status.st_mtim = controlTime(picker)
            } else {
                status.st_blksize = 4096
                status.st_mtim = nextRequestTime()
                if attributes.readWaits { status.st_size = RequestFiles.pendingSize }
            }
            status.st_ctim = status.st_mtim
            return status
        case .directory:
            status.st_mode = mode_t(S_IFDIR) | mode_t(attributes.permissions)
            // glibc sizes a directory stream's buffer by st_blksize (up to 1 MiB) and the
            // kernel asks for listing chunks that large (up to max_pages, 1 MiB here): a
            // folder of 100,000 names then comes in about 17 READDIRPLUS replies rather than 130.
            status.st_blksize = 1 << 20
        case .file:
            status.st_mode = mode_t(S_IFREG) | mode_t(attributes.permissions)
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
    static func fileTime(nanoseconds: Int64) -> timespec {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        return timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds - seconds * 1_000_000_000))
    }

    /// How long the kernel may trust attributes: never for `.picker` and the request files
    /// (a write through them changes them in the kernel) nor for what differs by caller
    /// (see the type's comment), long for everything else (changes are pushed).
    func attributeTimeout(of attributes: ViewAttributes, in tree: ViewTree) -> Double {
        attributes.kind == .control || differsByCaller(attributes.inode, in: tree) ? 0 : configuration.cacheTimeout
    }

    /// Whether other callers may get another answer for this inode's name: the apps under
    /// `apps/`, when other users may enter.
    func differsByCaller(_ inode: UInt64, in tree: ViewTree) -> Bool {
        configuration.othersMayEnter && tree.node(inode: inode)?.parent == ViewInode.apps
    }

    /// A LOOKUP/READDIRPLUS entry for a node; for `.picker`, for its rendering `picker`.
    func entry(for node: ViewNode, in tree: ViewTree, picker: PickerGenerations.Text? = nil) -> fuse_entry_param {
        let text = node.kind == .picker ? picker ?? currentPickerText() : nil
        return entry(for: layer.attributes(of: node, in: tree, pickerSize: text.map { Int64($0.bytes.count) }), in: tree, picker: text)
    }

    /// A LOOKUP/READDIRPLUS entry for what the layer answered; for `.picker`, for its
    /// rendering `picker` (the kernel must ask again on every walk, to get the newest one).
    func entry(for attributes: ViewAttributes, in tree: ViewTree, picker: PickerGenerations.Text?) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = attributes.inode
        entry.generation = 0
        entry.attr = status(of: attributes, picker: picker)
        entry.attr_timeout = attributeTimeout(of: attributes, in: tree)
        entry.entry_timeout = differsByCaller(attributes.inode, in: tree) ? 0 : configuration.cacheTimeout
        if let picker {
            entry.ino = picker.inode
            entry.generation = picker.generation
            entry.entry_timeout = 0
        }
        return entry
    }
}
