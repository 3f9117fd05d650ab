import CFuse
import Glibc
import MediaFormats
import PhotoCore

/// OPEN, READ, RELEASE and FLUSH of asset files (and READ of `.picker`, see `Control.swift`).
///
/// OPEN answers ENOSYS: the kernel then opens every regular file of the mount by itself,
/// with the page cache kept, and never sends OPEN or RELEASE again (an open+read+close of
/// a cached file costs no round trip at all). There is no per-descriptor state, so every
/// READ that reaches the daemon checks, from the current tree, that the caller may still
/// see the inode and serves the view's bytes: a revoked asset answers EACCES to a
/// descriptor opened before the revocation (the revocation drops its pages and
/// attributes, so the kernel asks again). Each READ opens the source, checks it is still
/// the file the catalog describes, reads and closes it: nothing holds a descriptor per
/// inode, and a source changed before the watcher caught up is refused (ESTALE) rather
/// than served under the old size. Each view has its own inodes, so redacted and original
/// bytes never share pages.
///
/// With no OPEN, a write-open of an asset succeeds and its writes fail with EROFS; O_TRUNC
/// arrives as a SETATTR (atomic O_TRUNC is not negotiated) and is refused there.
extension PhotoFileSystem {
    func open(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "open") { () throws(FileSystemError) -> Reply in throw .notImplemented }
    }

    func read(_ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        if PickerGenerations.isPicker(inode) {
            readControl(request, inode, size, offset)
            return
        }
        let tree = self.tree
        let node = tree.node(inode: inode)
        if node == nil, let special = specialFile(inode: inode, in: tree) {
            readSpecial(special, request, size, offset, flags: info?.pointee.flags ?? O_RDONLY)
            return
        }
        respond(request, "read") { () throws(FileSystemError) -> Reply in try readFile(request, node, in: tree, size, offset) }
    }

    private func readFile(_ request: fuse_req_t, _ node: ViewNode?, in tree: ViewTree, _ size: Int, _ offset: Int) throws(FileSystemError)
        -> Reply
    {
        // A read names an inode the kernel had: one that left the tree was revoked or removed.
        guard let node, tree.isVisible(node, to: try caller(of: request, in: tree)) else {
            throw .accessDenied
        }
        guard case .file(_, let policy, let metadata) = node.kind, let asset = tree.asset(of: node) else { throw .isDirectory }
        guard offset >= 0, size >= 0 else { throw .invalidArgument }
        // A private plan is overlaid from its stored form; a withheld one refuses the read.
        if metadata == .private, asset.redaction.privatePlans.isWithheld(for: policy) { throw .accessDenied }
        var patches: [Patch]?
        if policy != .keep && metadata == .keep {
            // A withheld plan never reaches a view; refuse rather than serve the original.
            guard let planned = asset.redaction.plan(for: policy).patchesToServe else { throw .accessDenied }
            patches = planned.isEmpty ? nil : planned
        }
        let fd = try openSource(asset)
        defer { close(fd) }
        let buffer = buffers.buffer(atLeast: size)
        let wanted = min(size, buffer.count)
        var total = 0
        while total < wanted {
            let count = pread(fd, buffer.baseAddress! + total, wanted - total, off_t(offset + total))
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno: errno, call: "pread")
            }
            if count == 0 { break }
            total += count
        }
        let filled = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<total])
        if let patches { PatchOverlay.apply(patches, to: filled, at: Int64(offset)) }
        if metadata == .private, !asset.redaction.privatePlans.apply(for: policy, to: filled, at: Int64(offset)) { throw .accessDenied }
        return .bytes(UnsafeRawBufferPointer(filled))
    }

    /// Opens an asset's source and checks it is the file the catalog describes: otherwise
    /// the listed size is wrong and patch offsets may not fit (the watcher will catch up).
    /// The ctime is checked too: a same-size rewrite with its mtime set back keeps size and
    /// mtime, and must not be served under the old file's redaction plan.
    private func openSource(_ asset: Asset) throws(FileSystemError) -> Int32 {
        let fd = openSource(asset.path)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? .stale : .system(errno: code, call: "open")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) == asset.size,
            Self.sameTime(status.st_mtim, asset.mtimeNanoseconds),
            Int64(status.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(status.st_ctim.tv_nsec) == asset.ctimeNanoseconds
        else {
            close(fd)
            throw .stale
        }
        return fd
    }

    /// RELEASE of a file; only sent for handles made at open, which the mount no longer makes.
    func release(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "release") { () throws(FileSystemError) -> Reply in
            if let number = info?.pointee.fh { Handle.release(number) }
            return .done
        }
    }

    /// FLUSH answers ENOSYS: the kernel then never sends it again (one round trip less per close).
    func flush(_ request: fuse_req_t) {
        respond(request, "flush") { () throws(FileSystemError) -> Reply in throw .notImplemented }
    }

    /// Opens a library file by its library-relative path, never leaving the library and
    /// never through a symbolic link (see `SourceOpener`).
    private func openSource(_ path: LibraryPath) -> Int32 {
        SourceOpener(libraryFD: libraryFD).open(path)
    }

    /// Whether a file time equals the catalog's nanoseconds (a catalog that kept only
    /// whole seconds matches any nanoseconds in that second).
    static func sameTime(_ time: timespec, _ nanoseconds: Int64) -> Bool {
        let seconds = Int64(time.tv_sec)
        if nanoseconds % 1_000_000_000 == 0 { return seconds * 1_000_000_000 == nanoseconds }
        return seconds &* 1_000_000_000 &+ Int64(time.tv_nsec) == nanoseconds
    }
}
