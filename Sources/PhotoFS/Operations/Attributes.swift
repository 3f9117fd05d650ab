import CFuse
import Glibc
import PhotoCore

/// GETATTR and SETATTR, and the attributes every reply carries.
///
/// Ownership and mode bits restate the access model so that the kernel (mounted with
/// `default_permissions` under `--allow-other`) refuses a walk the daemon would refuse,
/// even from a cached dentry: `library/` 0500 and `.picker` 0600 belong to the owner, an
/// app's directory 0500 to its bound uid (or the owner), everything else is 0555/0444.
extension PhotoFileSystem {
    /// With a file (`fstat`, and the attribute refresh the kernel makes before a read once a
    /// revocation invalidated them), an inode that left the tree answers EACCES like its
    /// reads, rather than ENOENT. `.picker` reports the size of what this caller's next
    /// read returns and a new mtime every time (see `Control.swift`).
    func getattr(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>? = nil) {
        respond(request, "getattr") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            if info != nil, tree.node(inode: inode) == nil { throw .accessDenied }
            let node = try visibleNode(inode, in: tree, to: try caller(of: request, in: tree))
            return .attributes(attributes(of: node, in: tree, for: request), timeout: attributeTimeout(of: node))
        }
    }

    /// ACCESS (sent when the mount has no `default_permissions`): write access is refused
    /// everywhere but `.picker`, so `test -w` tells the truth about a read-only view.
    func access(_ request: fuse_req_t, _ inode: UInt64, _ mask: Int32) {
        respond(request, "access") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
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
            let caller = try caller(of: request, in: tree)
            let node = try visibleNode(inode, in: tree, to: caller)
            guard node.kind == .picker,
                fields & ~(FUSE_SET_ATTR_SIZE | FUSE_SET_ATTR_CTIME | FUSE_SET_ATTR_MTIME | FUSE_SET_ATTR_MTIME_NOW) == 0,
                fields & FUSE_SET_ATTR_SIZE == 0 || wanted?.pointee.st_size == 0
            else { throw .readOnly }
            guard caller == .owner else { throw .accessDenied }
            return .attributes(attributes(of: node, in: tree, for: request), timeout: 0)
        }
    }

    /// The `stat` of a node: exact size and mtime of the source for files; for `.picker`,
    /// when the request is known, the size and a fresh mtime for that caller.
    func attributes(of node: ViewNode, in tree: ViewTree, for request: fuse_req_t? = nil) -> stat {
        var status = stat()
        status.st_ino = __ino_t(node.inode)
        status.st_uid = tree.boundUID(of: node) ?? configuration.ownerUID
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
            if let request {
                status.st_size = controlSize(for: request)
                status.st_mtim = nextControlTime()
                status.st_ctim = status.st_mtim
            }
        case .file:
            let asset = tree.asset(of: node)
            let size = max(0, asset?.size ?? 0)
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

    /// How long the kernel may trust a node's attributes: never for `.picker` (its content
    /// changes under the kernel), long for everything else (changes are pushed).
    func attributeTimeout(of node: ViewNode) -> Double {
        node.kind == .picker ? 0 : configuration.cacheTimeout
    }

    /// A LOOKUP/READDIRPLUS entry for a node.
    func entry(for node: ViewNode, in tree: ViewTree, for request: fuse_req_t? = nil) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = node.inode
        entry.generation = 0
        entry.attr = attributes(of: node, in: tree, for: request)
        entry.attr_timeout = attributeTimeout(of: node)
        entry.entry_timeout = configuration.cacheTimeout
        return entry
    }
}
