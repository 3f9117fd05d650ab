import CFuse
import PhotoCore
import SystemKit

/// The libfuse low-level operations table: one `@convention(c)` function per operation,
/// each finding the `PhotoFileSystem` through the request's userdata and handing over to
/// the operation families in `Operations/`. Operations left out answer ENOSYS (getxattr,
/// listxattr, locks); every write-like operation answers EROFS.
enum FuseOperations {
    static func table() -> fuse_lowlevel_ops {
        var ops = fuse_lowlevel_ops()
        ops.`init` = { userdata, connection in
            guard let connection else { return }
            let fileSystem = userdata.map { Unmanaged<PhotoFileSystem>.fromOpaque($0).takeUnretainedValue() }
            let othersMayEnter =
                fileSystem.map { $0.configuration.othersMayEnter || $0.optionsLetOthersIn.load(ordering: .relaxed) } ?? true
            let withoutOpen = FuseOperations.negotiate(&connection.pointee, othersMayEnter: othersMayEnter)
            if let fileSystem {
                fileSystem.directoriesWithoutOpen.store(withoutOpen, ordering: .relaxed)
                // libfuse derives max_pages from max_write: ceil(max_write / page size).
                let maxWrite = Int(connection.pointee.max_write)
                fileSystem.controlFile.maxWrite.store(maxWrite, ordering: .relaxed)
                fileSystem.controlFile.maxWritePages.store((maxWrite - 1) / Memory.pageSize + 1, ordering: .relaxed)
            }
        }
        ops.lookup = { request, parent, name in
            FuseOperations.with(request) { $0.lookup($1, parent, name) }
        }
        ops.forget = { request, inode, count in
            guard let request else { return }
            if PickerGenerations.isPicker(inode) { PhotoFileSystem.from(request)?.controlFile.generations.forget(inode, count: count) }
            fuse_reply_none(request)
        }
        ops.forget_multi = { request, count, forgotten in
            guard let request else { return }
            if let fileSystem = PhotoFileSystem.from(request), let forgotten {
                for item in UnsafeBufferPointer(start: forgotten, count: count) where PickerGenerations.isPicker(item.ino) {
                    fileSystem.controlFile.generations.forget(item.ino, count: item.nlookup)
                }
            }
            fuse_reply_none(request)
        }
        ops.getattr = { request, inode, info in
            FuseOperations.with(request) { $0.getattr($1, inode, info) }
        }
        ops.setattr = { request, inode, attributes, fields, _ in
            FuseOperations.with(request) { $0.setattr($1, inode, attributes, fields) }
        }
        ops.access = { request, inode, mask in
            FuseOperations.with(request) { $0.access($1, inode, mask) }
        }
        ops.opendir = { request, inode, info in
            FuseOperations.with(request) { $0.opendir($1, inode, info) }
        }
        ops.readdir = { request, inode, size, offset, info in
            FuseOperations.with(request) { $0.readdir($1, inode, size, offset, info, plus: false) }
        }
        ops.readdirplus = { request, inode, size, offset, info in
            FuseOperations.with(request) { $0.readdir($1, inode, size, offset, info, plus: true) }
        }
        ops.releasedir = { request, _, info in
            FuseOperations.with(request) { $0.releasedir($1, info) }
        }
        ops.open = { request, inode, info in
            FuseOperations.with(request) { $0.open($1, inode, info) }
        }
        ops.read = { request, inode, size, offset, info in
            FuseOperations.with(request) { $0.read($1, inode, size, offset, info) }
        }
        ops.write = { request, inode, bytes, size, offset, info in
            FuseOperations.with(request) { $0.write($1, inode, bytes, size, Int(offset), info) }
        }
        ops.release = { request, _, info in
            FuseOperations.with(request) { $0.release($1, info) }
        }
        ops.flush = { request, _, _ in
            FuseOperations.with(request) { $0.flush($1) }
        }
        ops.poll = { request, inode, _, handle in
            FuseOperations.with(request) { $0.poll($1, inode, handle) }
        }
        ops.statfs = { request, _ in
            FuseOperations.with(request) { $0.statfs($1) }
        }
        ops.mkdir = { request, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "mkdir") } }
        ops.mknod = { request, _, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "mknod") } }
        ops.unlink = { request, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "unlink") } }
        ops.rmdir = { request, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "rmdir") } }
        ops.symlink = { request, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "symlink") } }
        ops.rename = { request, _, _, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "rename") } }
        ops.link = { request, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "link") } }
        ops.create = { request, _, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "create") } }
        ops.setxattr = { request, _, _, _, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "setxattr") } }
        ops.removexattr = { request, _, _ in FuseOperations.with(request) { $0.refuseWrite($1, "removexattr") } }
        return ops
    }

    /// Finds the file system of a request and runs `body`; a request without one (cannot
    /// happen with our session) still gets its one reply.
    static func with(_ request: fuse_req_t?, _ body: (PhotoFileSystem, fuse_req_t) -> Void) {
        guard let request else { return }
        guard let fileSystem = PhotoFileSystem.from(request) else {
            fuse_reply_err(request, Errno.ioError.rawValue)
            return
        }
        body(fileSystem, request)
    }

    /// Capabilities: readdirplus on every chunk (a listing doubles as the lookups of
    /// `ls -l`/`find`, see `StatWalkers`),
    /// asynchronous reads (OPEN is answered, see `Read.swift`, so that the control and
    /// request files can be opened with direct I/O), and
    /// automatic data invalidation, which makes every read refresh expired attributes and
    /// drop the pages when the mtime moved: only `.picker` has attributes that expire at
    /// once, so only its reads pay for it (see `Control.swift`); every other change is
    /// pushed explicitly. No atomic O_TRUNC: without OPEN, the kernel would truncate its
    /// cached size of an asset by itself; a SETATTR instead lets the daemon refuse it. No
    /// splice (reads go through the per-thread buffer to be patched).
    ///
    /// No-opendir support only when no other user may enter (`othersMayEnter` false): then
    /// OPENDIR answers ENOSYS and the kernel caches every listing for every caller, which
    /// is safe only when every caller is the owner (see `Directory.swift`). Returns whether
    /// it was negotiated.
    static func negotiate(_ connection: inout fuse_conn_info, othersMayEnter: Bool) -> Bool {
        let capable = connection.capable
        var want = connection.want
        var flags = [
            FUSE_CAP_READDIRPLUS, FUSE_CAP_ASYNC_READ, FUSE_CAP_PARALLEL_DIROPS, FUSE_CAP_AUTO_INVAL_DATA,
        ]
        if !othersMayEnter { flags.append(FUSE_CAP_NO_OPENDIR_SUPPORT) }
        for flag in flags {
            if capable & UInt32(flag) != 0 { want |= UInt32(flag) }
        }
        // READDIRPLUS on every chunk, not "auto" (libfuse's default): the daemon decides
        // which chunks carry attributes (`StatWalkers`). The kernel's "auto" asks with
        // attributes only for a listing's first chunk and after lookups of its names, which
        // `find` sends only once it has read the whole listing: one LOOKUP per name.
        for flag in [
            FUSE_CAP_READDIRPLUS_AUTO, FUSE_CAP_SPLICE_READ, FUSE_CAP_SPLICE_WRITE, FUSE_CAP_SPLICE_MOVE, FUSE_CAP_ATOMIC_O_TRUNC,
            FUSE_CAP_WRITEBACK_CACHE, FUSE_CAP_NO_OPEN_SUPPORT,
        ] {
            want &= ~UInt32(flag)
        }
        if othersMayEnter { want &= ~UInt32(FUSE_CAP_NO_OPENDIR_SUPPORT) }
        connection.want = want
        connection.time_gran = 1
        // Stated rather than left to libfuse's default, so `.picker` knows where the
        // kernel splits a write (see `Control.swift`): 1 MiB, libfuse's largest buffer.
        connection.max_write = 1 << 20
        return want & UInt32(FUSE_CAP_NO_OPENDIR_SUPPORT) != 0
    }
}
