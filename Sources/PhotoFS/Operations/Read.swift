import CFuse
import Glibc
import PhotoCore

/// OPEN, READ, RELEASE and FLUSH of asset files (and READ of `.picker`, see `Control.swift`).
/// Which bytes a READ serves is the view layer's (`ViewLayer.read`: the caller check, the
/// redaction patches, the source read through `LibraryFileReader`); this fills the
/// thread's buffer with them and replies.
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
        respond(request, "open") { () throws(ViewLayerError) -> Reply in throw .notImplemented }
    }

    func read(_ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        if PickerGenerations.isPicker(inode) {
            readControl(request, inode, size, offset)
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

    /// RELEASE of a file; only sent for handles made at open, which the mount no longer makes.
    func release(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "release") { () throws(ViewLayerError) -> Reply in
            if let number = info?.pointee.fh { Handle.release(number) }
            return .done
        }
    }

    /// FLUSH answers ENOSYS: the kernel then never sends it again (one round trip less per close).
    func flush(_ request: fuse_req_t) {
        respond(request, "flush") { () throws(ViewLayerError) -> Reply in throw .notImplemented }
    }
}
