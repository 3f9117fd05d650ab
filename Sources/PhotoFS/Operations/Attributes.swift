import CFuse
import Glibc
import PhotoCore

/// GETATTR and SETATTR, and the attributes every reply carries.
///
/// Ownership and mode bits restate the access model so that the kernel (mounted with
/// `default_permissions` under `--allow-other`) refuses a walk the daemon would refuse,
/// even from a cached dentry: `library/` 0500 and `.picker` 0600 belong to the owner, an
/// app's directory 0500 to its bound uid (or the owner), everything else is 0555/0444.
/// A private mount (no `--allow-other`) lets only its owner in, so there every app's
/// directory is the owner's: the owner (who has no DAC override unless root) can enter
/// every view, a sandbox of a bound app included.
///
/// When other users may enter, the entries of `apps/` differ by caller (a bound uid sees
/// only its own app) while the kernel's name and attribute caches serve every caller
/// alike: they are not cached at all, so each walk asks the daemon as this caller.
extension PhotoFileSystem {
    /// A GETATTR names an inode the kernel holds: names are resolved by LOOKUP, which
    /// answers ENOENT for what the caller may not see, and a revocation drops the names the
    /// kernel cached. So an inode that left the tree is one held open (a descriptor, whose
    /// `fstat` comes here without naming the file, or a working directory) and answers
    /// EACCES like its reads; one in the tree but not visible to this caller answers ENOENT.
    func getattr(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>? = nil) {
        respond(request, "getattr") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            if tree.node(inode: Self.treeInode(inode)) == nil, let special = specialFile(inode: inode, in: tree) {
                _ = try specialCaller(special, request, in: tree)
                return .attributes(specialAttributes(special, in: tree), timeout: 0)
            }
            if tree.node(inode: Self.treeInode(inode)) == nil { throw .accessDenied }
            let node = try visibleNode(inode, in: tree, to: try caller(of: request, in: tree))
            try checkRepresentation(of: node, in: tree)
            let text = node.kind == .picker ? try pickerText(inode) : nil
            return .attributes(attributes(of: node, in: tree, picker: text), timeout: attributeTimeout(of: node))
        }
    }

    /// ACCESS (sent when the mount has no `default_permissions`): write access is refused
    /// everywhere but `.picker`, so `test -w` tells the truth about a read-only view.
    func access(_ request: fuse_req_t, _ inode: UInt64, _ mask: Int32) {
        respond(request, "access") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            if tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) {
                _ = try specialCaller(special, request, in: tree)
                return .done
            }
            let caller = try caller(of: request, in: tree)
            let node = try visibleNode(inode, in: tree, to: caller)
            if mask & W_OK != 0 {
                guard node.kind == .picker else { throw .readOnly }
                guard caller == .owner else { throw .accessDenied }
            }
            return .done
        }
    }

    /// Only `.picker` accepts a truncation to 0 (what `echo > .picker` sends without
    /// atomic O_TRUNC); everything else is read-only.
    func setattr(_ request: fuse_req_t, _ inode: UInt64, _ wanted: UnsafeMutablePointer<stat>?, _ fields: Int32) {
        respond(request, "setattr") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            if tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) {
                // Only the truncation of `echo > FILE`; the size reported is 0 so that the
                // kernel does not read the page back before the write (which would wait).
                _ = try specialCaller(special, request, in: tree)
                guard fields & FUSE_SET_ATTR_SIZE == 0 || wanted?.pointee.st_size == 0 else { throw .readOnly }
                return .attributes(specialAttributes(special, in: tree, truncated: true), timeout: 0)
            }
            let caller = try caller(of: request, in: tree)
            let node = try visibleNode(inode, in: tree, to: caller)
            guard node.kind == .picker,
                fields & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_CTIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW) == 0,
                fields & FUSE_SET_ATTR_SIZE == 0 || wanted?.pointee.st_size == 0
            else { throw .readOnly }
            guard caller == .owner else { throw .accessDenied }
            return .attributes(attributes(of: node, in: tree, picker: try pickerText(inode)), timeout: 0)
        }
    }

    /// The `stat` of a node: exact size and mtime of the source for files; for `.picker`,
    /// those of the rendering `picker` (the current one when not given).
    func attributes(of node: ViewNode, in tree: ViewTree, picker: PickerGenerations.Text? = nil) -> stat {
        var status = stat()
        status.st_ino = __ino_t(node.inode)
        status.st_uid = configuration.othersMayEnter ? tree.boundUID(of: node) ?? configuration.ownerUID : configuration.ownerUID
        status.st_gid = configuration.ownerGID
        status.st_blksize = 1 << 17
        status.st_atim = startTime
        status.st_mtim = startTime
        status.st_ctim = startTime
        switch node.kind {
        case .directory:
            status.st_mode = S_IFDIR | directoryMode(of: node, in: tree)
            status.st_nlink = 2
            if let changed = tree.directoryTimes.time(of: node.inode) {
                status.st_mtim = Self.fileTime(nanoseconds: changed)
                status.st_ctim = status.st_mtim
            }
        case .picker:
            status.st_mode = S_IFREG | 0o600
            status.st_nlink = 1
            let text = picker ?? currentPickerText()
            status.st_ino = __ino_t(text.inode)
            status.st_size = text.bytes.count
            status.st_mtim = controlTime(text)
            status.st_ctim = status.st_mtim
        case .file:
            let asset = tree.asset(of: node)
            let size = max(0, asset.map { servedSize(of: node, asset: $0) } ?? 0)
            status.st_mode = S_IFREG | 0o444
            status.st_nlink = 1
            status.st_size = Int(size)
            status.st_blocks = Int((size &+ 511) / 512)
            let time = Self.fileTime(nanoseconds: asset?.mtimeNanoseconds ?? 0)
            status.st_mtim = time
            status.st_ctim = time
            status.st_atim = time
        }
        return status
    }

    /// Nanoseconds since 1970 as a `timespec` (floored, so times before 1970 work too).
    static func fileTime(nanoseconds: Int64) -> Glibc.timespec {
        let seconds = nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
        return Glibc.timespec(tv_sec: Int(seconds), tv_nsec: Int(nanoseconds - seconds * 1_000_000_000))
    }

    private func directoryMode(of node: ViewNode, in tree: ViewTree) -> mode_t {
        if node.inode == ViewInode.library { return 0o500 }
        if case .app = node.scope, node.parent == ViewInode.apps { return 0o500 }
        return 0o555
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
