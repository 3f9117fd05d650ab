import CFuse
import Glibc
import PhotoCore

/// OPEN, READ, RELEASE and FLUSH of asset files.
///
/// Open opens the source (`O_RDONLY|O_CLOEXEC|O_NOFOLLOW`) and keeps the descriptor in
/// the file handle, closed at release: nothing holds a descriptor per inode, so 100,000
/// files never exhaust the open-files limit. Pages are kept in the kernel's cache
/// (`keep_cache`): an inode's bytes only change through a snapshot swap, which
/// invalidates them. Each view has its own inodes, so redacted and original bytes never
/// share pages.
extension PhotoFileSystem {
    func open(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        if inode == ViewInode.picker {
            openControl(request, info)
            return
        }
        respond(request, "open", info: info) { () throws(FileSystemError) -> Reply in
            guard let info else { throw .unexpected("open without file info") }
            let tree = self.tree
            let node = try visibleNode(inode, in: tree, to: try caller(of: request, in: tree))
            guard case .file(_, let policy) = node.kind, let asset = tree.asset(of: node) else { throw .isDirectory }
            guard info.pointee.flags & O_ACCMODE == O_RDONLY, info.pointee.flags & O_TRUNC == 0 else { throw .readOnly }
            var patches: [Patch]?
            if policy != .keep {
                // A withheld plan never reaches a view; refuse rather than serve the original.
                guard let planned = asset.redaction.plan(for: policy).patchesToServe else { throw .accessDenied }
                patches = planned.isEmpty ? nil : planned
            }
            let fd = openSource(asset.path)
            guard fd >= 0 else {
                let code = errno
                throw code == ENOENT ? .stale : .system(errno: code, call: "open")
            }
            var status = stat()
            guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                throw .stale
            }
            // The catalog's size and mtime must describe these bytes: otherwise the
            // listed size is wrong and patch offsets may not fit. The watcher will catch up.
            guard Int64(status.st_size) == asset.size, Self.sameTime(status.st_mtim, asset.mtimeNanoseconds) else {
                close(fd)
                throw .stale
            }
            let open = OpenFile(fd: fd, inode: inode, asset: asset.id, patches: patches, inAppView: policyView(node), status: status)
            return .open(Handle(.file(open)), keepCache: true, directIO: false, cacheReaddir: false)
        }
    }

    func read(_ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let number = info?.pointee.fh, let handle = Handle.borrow(number) else {
            respond(request, "read") { () throws(FileSystemError) -> Reply in throw .unexpected("read without an open file") }
            return
        }
        switch handle.kind {
        case .control(let control):
            readControl(request, control, size, offset)
        case .file(let file):
            respond(request, "read") { () throws(FileSystemError) -> Reply in try readFile(file, size, offset) }
        case .directory:
            respond(request, "read") { () throws(FileSystemError) -> Reply in throw .isDirectory }
        }
    }

    private func readFile(_ file: OpenFile, _ size: Int, _ offset: Int) throws(FileSystemError) -> Reply {
        // Revocation: the asset must still be in the view this descriptor was opened in.
        let tree = self.tree
        guard let node = tree.node(inode: file.inode), tree.asset(of: node)?.id == file.asset else {
            throw file.inAppView ? .accessDenied : .stale
        }
        guard offset >= 0, size >= 0 else { throw .invalidArgument }
        if file.patches != nil {
            var status = stat()
            guard fstat(file.fd, &status) == 0, Int64(status.st_size) == file.size, status.st_mtim.tv_sec == file.mtimeSeconds,
                status.st_mtim.tv_nsec == file.mtimeNanoseconds
            else { throw .stale }
        }
        let buffer = buffers.buffer(atLeast: size)
        let wanted = min(size, buffer.count)
        var total = 0
        while total < wanted {
            let count = pread(file.fd, buffer.baseAddress! + total, wanted - total, off_t(offset + total))
            if count < 0 {
                if errno == EINTR { continue }
                throw .system(errno: errno, call: "pread")
            }
            if count == 0 { break }
            total += count
        }
        let filled = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<total])
        if let patches = file.patches { PatchOverlay.apply(patches, to: filled, at: Int64(offset)) }
        return .bytes(UnsafeRawBufferPointer(filled))
    }

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

    /// Opens a library file by its library-relative path, never following a symlink at the end.
    private func openSource(_ path: LibraryPath) -> Int32 {
        guard !path.bytes.isEmpty, path.bytes.first != UInt8(ascii: "/"), !path.components.contains([0x2E, 0x2E]) else {
            errno = ENOENT
            return -1
        }
        return path.bytes.withCString { openat(libraryFD, $0, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY) }
    }

    private func policyView(_ node: ViewNode) -> Bool {
        if case .app = node.scope { return true }
        return false
    }

    /// Whether a file time equals the catalog's nanoseconds (a catalog that kept only
    /// whole seconds matches any nanoseconds in that second).
    static func sameTime(_ time: timespec, _ nanoseconds: Int64) -> Bool {
        let seconds = Int64(time.tv_sec)
        if nanoseconds % 1_000_000_000 == 0 { return seconds * 1_000_000_000 == nanoseconds }
        return seconds &* 1_000_000_000 &+ Int64(time.tv_nsec) == nanoseconds
    }
}
