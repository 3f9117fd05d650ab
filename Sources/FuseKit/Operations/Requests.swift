import CFuse
import PhotoCore
import SystemKit

/// The request files: `apps/APP/.request`, where a confined app asks the person to pick
/// photos and reads the answer, and `.requests` at the root, where the owner's tools list
/// pending requests and answer them. Which file an inode is, who may see it and what each
/// operation does with it is the view layer's (`ViewLayer+Operations`, `ViewLayer+Requests`);
/// this adds what only the kernel needs: handles, deferred replies, poll notifications.
///
/// A read of a pending request is answered only when
/// the request is settled (the `read(2)` blocks; with O_NONBLOCK it fails with EAGAIN, and
/// `poll(2)` reports readable once settled); then it returns `PickAnswer` text until the
/// app's next request. Nothing an app writes grants anything: grants change only by the
/// owner's `.picker` writes, and an answer only tells the app what it now sees.
///
/// `.requests` reads as one line per pending request; the owner writes `answer APP ID
/// [ASSET-ID...]` (after granting them through `.picker`) or `cancel APP ID`. Like
/// `.picker`, both files report a new mtime on every GETATTR and are never cached, so
/// every read reaches the daemon (see `Control.swift`). Neither file is listed by readdir:
/// they are found by name, so a listing of a view still shows only its photos.
extension PhotoFileSystem {
    /// OPEN of a request file (the layer checked the caller): direct I/O, so a READ that
    /// waits for the person holds no page of the page cache (a `stat`, a listing or another
    /// reader never waits behind it), and a descriptor the daemon counts (see
    /// `RequestFiles.closed`).
    func openSpecial(_ special: ViewSpecialFile) -> Reply {
        if case .request(let app) = special { requests.opened(app) }
        return .open(Handle(.request(special)), keepCache: false, directIO: true, cacheReaddir: false)
    }

    /// RELEASE of a request file's descriptor.
    func closedSpecial(_ special: ViewSpecialFile) {
        guard case .request(let app) = special else { return }
        requests.closed(app)
    }

    /// POLL: readable when the app's request is not pending; otherwise the handle is kept
    /// and notified once the request is settled (`DeferredReads`).
    func poll(_ request: fuse_req_t, _ inode: UInt64, _ handle: OpaquePointer?) {
        let (readable, token) = layer.poll(Self.treeInode(inode), in: tree, register: handle != nil)
        if let handle {
            if let token { requests.reads.notifyLater(handle, token: token) } else { fuse_pollhandle_destroy(handle) }
        }
        fuse_reply_poll(request, readable ? Poll.readableReply : 0)
    }
}

extension PhotoFileSystem {
    /// A fresh mtime for every GETATTR of a request file: the mount's start time plus a
    /// counter in nanoseconds.
    func nextRequestTime() -> timespec {
        let tick = requests.ticks.add(1, ordering: .relaxed).newValue
        let nanoseconds = startTime.tv_nsec + tick % 1_000_000_000
        return timespec(tv_sec: startTime.tv_sec + tick / 1_000_000_000 + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
    }
}
