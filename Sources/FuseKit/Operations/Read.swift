import CFuse
import Glibc
import PhotoCore

/// OPEN, READ, RELEASE and FLUSH of asset files (and READ of `.picker`, see `Control.swift`).
/// Which bytes a READ serves is the view layer's (`ViewLayer.read`: the caller check, the
/// redaction patches, the source read through `LibraryFileReader`); this fills the
/// thread's buffer with them and replies.
///
/// OPEN of a photo is answered at once with no handle, the page cache kept and no FLUSH at
/// close: one round trip per open. (Answering ENOSYS would spare it, but the kernel then
/// opens every file of the mount by itself with the page cache, the control and request
/// files too, and a READ that waits for a person there holds a page lock that `stat` and
/// other readers queue behind, unkillably.) There is no per-descriptor state for photos,
/// so every READ that reaches the daemon checks, from the current tree, that the caller
/// may still see the inode and serves the view's bytes: a revoked asset answers EACCES to a
/// descriptor opened before the revocation (the revocation drops its pages and
/// attributes, so the kernel asks again). Each READ opens the source, checks it is still
/// the file the catalog describes, reads and closes it: nothing holds a descriptor per
/// inode, and a source changed before the watcher caught up is refused (ESTALE) rather
/// than served under the old size. Each view has its own inodes, so redacted and original
/// bytes never share pages.
///
/// A write-open of an asset succeeds and its writes fail with EROFS; O_TRUNC arrives as a
/// SETATTR (atomic O_TRUNC is not negotiated) and is refused there.
extension PhotoFileSystem {
    func open(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let info else {
            fuse_reply_err(request, EIO)
            return
        }
        if PickerGenerations.isPicker(inode) {
            respond(request, "open .picker", info: info) { () throws(ViewLayerError) -> Reply in try openControl(request, inode) }
            return
        }
        let tree = self.tree
        if tree.node(inode: inode) == nil, let special = layer.specialFile(inode: inode, in: tree) {
            respond(request, "open request file", info: info) { () throws(ViewLayerError) -> Reply in
                _ = try specialCaller(special, request, in: tree)
                return openSpecial(special, request)
            }
            return
        }
        // A photo or a directory entry: no handle, the pages kept as they are, no FLUSH at
        // close. Who may read is checked on every READ from the current views.
        info.pointee.fh = 0
        info.pointee.keep_cache = 1
        info.pointee.noflush = 1
        info.pointee.direct_io = 0
        fuse_reply_open(request, info)
    }

    func read(_ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        if PickerGenerations.isPicker(inode) {
            readControl(request, inode, size, offset, info)
            return
        }
        let tree = self.tree
        if tree.node(inode: inode) == nil, let special = layer.specialFile(inode: inode, in: tree) {
            readSpecial(special, request, size, offset, flags: info?.pointee.flags ?? O_RDONLY)
            return
        }
        respond(request, "read") { () throws(ViewLayerError) -> Reply in
            guard offset >= 0, size >= 0 else { throw .invalidArgument }
            let caller = try caller(of: request, in: tree)
            let buffer = buffers.buffer(atLeast: size)
            let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(size, buffer.count)])
            let count = try layer.read(inode, caller: caller, at: offset, into: wanted, in: tree)
            return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// RELEASE of a file: the last close of a descriptor (also when its process died).
    func release(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "release") { () throws(ViewLayerError) -> Reply in
            if let number = info?.pointee.fh, number != 0 {
                if let handle = Handle.borrow(number), case .request(let special) = handle.kind { releaseSpecial(special) }
                Handle.release(number)
            }
            return .done
        }
    }

    /// FLUSH answers ENOSYS: the kernel then never sends it again (one round trip less per close).
    func flush(_ request: fuse_req_t) {
        respond(request, "flush") { () throws(ViewLayerError) -> Reply in throw .notImplemented }
    }
}
