import CFuse
import PhotoCore
import SystemKit

/// OPEN, READ, RELEASE and FLUSH of every file (`.picker` and the request files add their
/// handles, see `Control.swift` and `Requests.swift`).
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
    /// OPEN: the layer says what the file is (`ViewLayer.open`); `.picker` and the request
    /// files get a handle and direct I/O (`openControl`, `openSpecial`).
    func open(_ request: fuse_req_t, _ inode: UInt64, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        guard let info else {
            fuse_reply_err(request, Errno.ioError.rawValue)
            return
        }
        respond(request, "open", info: info) { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            switch try layer.open(Self.treeInode(inode), caller: try caller(of: request, in: tree), in: tree) {
            case .picker: return try openControl(inode)
            case .special(let special): return openSpecial(special)
            case .plain: return .plainOpen
            }
        }
    }

    /// READ: the layer serves it (`ViewLayer.read`): a photo's bytes into the thread's
    /// buffer, a text (`.requests`, a settled request), `.picker`'s rendering (the one the
    /// descriptor was opened on), or a pending request's deferred reply (`DeferredReads`).
    func read(_ request: fuse_req_t, _ inode: UInt64, _ size: Int, _ offset: Int, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "read") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let buffer = buffers.buffer(atLeast: size)
            let blocking = (info?.pointee.flags ?? 0) & FileDescriptor.Options.nonBlocking.rawValue == 0
            let answer = try layer.read(
                Self.treeInode(inode), caller: caller, at: offset, size: size, into: buffer, in: tree, now: RequestFiles.now(),
                mayWait: blocking)
            switch answer {
            case .filled(let count):
                return .bytes(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
            case .text(let text):
                return .bytes(Self.part(of: text, size: size, offset: offset, into: buffer))
            case .picker:
                // The rendering the descriptor was opened on, else the one the inode stands for.
                var opened: PickerGenerations.Text
                if let number = info?.pointee.fh, number != 0, let handle = Handle.borrow(number), case .picker(let text) = handle.kind {
                    opened = text
                } else {
                    opened = try pickerText(inode)
                }
                return .bytes(Self.part(of: opened.bytes, size: size, offset: offset, into: buffer))
            case .waiting(let app, let token):
                // Answered by the reply thread once settled, or EINTR by an interrupt.
                requests.reads.wait(request, size: size, offset: offset, app: app, token: token)
                return .deferred
            }
        }
    }

    /// The part of `text` at `offset` (at most `size` bytes), copied into `buffer`.
    static func part(of text: [UInt8], size: Int, offset: Int, into buffer: UnsafeMutableRawBufferPointer) -> UnsafeRawBufferPointer {
        let start = min(max(0, offset), text.count)
        let end = min(text.count, start + min(size, buffer.count))
        text.withUnsafeBytes { source in
            if end > start { buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: end - start) }
        }
        return UnsafeRawBufferPointer(rebasing: buffer[0..<(end - start)])
    }

    /// RELEASE of a file: the last close of a descriptor (also when its process died).
    func release(_ request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?) {
        respond(request, "release") { () throws(ViewLayerError) -> Reply in
            if let number = info?.pointee.fh, number != 0 {
                if let handle = Handle.borrow(number), case .request(let special) = handle.kind { closedSpecial(special) }
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
