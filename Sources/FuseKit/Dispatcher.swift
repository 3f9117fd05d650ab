import CFuse
import PhotoCore
import SystemKit

/// What a request is answered with. Built by an operation, sent by `respond`.
enum Reply {
    case entry(fuse_entry_param)
    case attributes(stat, timeout: Double)
    case open(Handle, keepCache: Bool, directIO: Bool, cacheReaddir: Bool)
    /// A photo's or directory entry's OPEN: no handle, the pages kept as they are, no
    /// FLUSH at close (who may read is checked on every READ).
    case plainOpen
    /// Bytes that stay valid until `respond` returns (the thread's buffer).
    case bytes(UnsafeRawBufferPointer)
    case written(Int)
    case statfs(statvfs)
    /// Success without data (release, releasedir).
    case done
    /// No reply now: a READ of a pending request, answered when it is settled.
    case deferred
}

extension PhotoFileSystem {
    /// The tree's number for a kernel inode: `.picker`'s renderings are its node.
    static func treeInode(_ inode: UInt64) -> UInt64 {
        PickerGenerations.isPicker(inode) ? ViewInode.picker : inode
    }

    /// The file system behind a request (the session userdata).
    static func from(_ request: fuse_req_t) -> PhotoFileSystem? {
        guard let userdata = fuse_req_userdata(request) else { return nil }
        return Unmanaged<PhotoFileSystem>.fromOpaque(userdata).takeUnretainedValue()
    }

    /// Runs one operation and sends exactly one reply: its result, or its error as an errno
    /// (`ViewLayerError.errno`, the one table; unexpected errors become EIO and are
    /// logged). Operations never reply themselves.
    func respond(
        _ request: fuse_req_t, _ operation: StaticString, info: UnsafeMutablePointer<fuse_file_info>? = nil,
        _ body: () throws(ViewLayerError) -> Reply
    ) {
        let reply: Reply
        do {
            reply = try body()
        } catch {
            if error.isWorthLogging { configuration.log("\(operation): \(error)") }
            fuse_reply_err(request, error.errno)
            return
        }
        send(reply, to: request, info, operation)
    }

    private func send(_ reply: Reply, to request: fuse_req_t, _ info: UnsafeMutablePointer<fuse_file_info>?, _ operation: StaticString) {
        switch reply {
        case .entry(var entry):
            fuse_reply_entry(request, &entry)
        case .attributes(var status, let timeout):
            fuse_reply_attr(request, &status, timeout)
        case .open(let handle, let keepCache, let directIO, let cacheReaddir):
            guard let info else {
                configuration.log("\(operation): no file info to open with")
                fuse_reply_err(request, Errno.ioError.rawValue)
                return
            }
            info.pointee.fh = handle.retainedNumber()
            info.pointee.keep_cache = keepCache ? 1 : 0
            info.pointee.direct_io = directIO ? 1 : 0
            info.pointee.cache_readdir = cacheReaddir ? 1 : 0
            if fuse_reply_open(request, info) != 0 {
                // The opener was interrupted: release will never come for this handle.
                Handle.release(info.pointee.fh)
            }
        case .plainOpen:
            guard let info else {
                fuse_reply_err(request, Errno.ioError.rawValue)
                return
            }
            info.pointee.fh = 0
            info.pointee.keep_cache = 1
            info.pointee.noflush = 1
            info.pointee.direct_io = 0
            fuse_reply_open(request, info)
        case .bytes(let bytes):
            fuse_reply_buf(request, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        case .written(let count):
            fuse_reply_write(request, count)
        case .statfs(var status):
            fuse_reply_statfs(request, &status)
        case .done:
            fuse_reply_err(request, 0)
        case .deferred:
            break
        }
    }

    /// The request's caller in terms of the access model; strangers are refused outright.
    func caller(of request: fuse_req_t, in tree: ViewTree) throws(ViewLayerError) -> ViewCaller {
        try layer.caller(uid: fuse_req_ctx(request)?.pointee.uid ?? UInt32.max, in: tree)
    }
}
