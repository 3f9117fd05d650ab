import CFuse
import Glibc
import PhotoCore

/// The request files: `apps/APP/.request`, where a confined app asks the person to pick
/// photos and reads the answer, and `.requests` at the root, where the owner's tools list
/// pending requests and answer them. What a write does and who may see which file is the
/// view layer's (`ViewLayer+Requests`); this adds what only the kernel needs.
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
    /// The caller, if it may see `special` (`ViewLayer.checkSpecial`); ENOENT otherwise.
    func specialCaller(_ special: ViewSpecialFile, _ request: fuse_req_t, in tree: ViewTree) throws(ViewLayerError) -> ViewCaller {
        let caller = try caller(of: request, in: tree)
        try layer.checkSpecial(special, caller: caller, in: tree)
        return caller
    }

    func specialAttributes(_ special: ViewSpecialFile, in tree: ViewTree, truncated: Bool = false) -> stat {
        var status = stat()
        status.st_ino = __ino_t(special.inode)
        status.st_uid = configuration.ownerUID
        status.st_gid = configuration.ownerGID
        status.st_blksize = 4096
        status.st_mode = S_IFREG | 0o600
        status.st_nlink = 1
        status.st_mtim = nextRequestTime()
        status.st_ctim = status.st_mtim
        status.st_atim = startTime
        switch special {
        case .request(let app):
            if let uid = tree.snapshot.apps[app]?.uid { status.st_uid = uid }
            switch requests.broker.status(of: app) {
            case .idle: status.st_size = 0
            case .pending: status.st_size = truncated ? 0 : RequestFiles.pendingSize
            case .answered(let answer): status.st_size = answer.bytes.count
            }
        case .requestList:
            status.st_size = requestListText().count
        }
        return status
    }

    func specialEntry(_ special: ViewSpecialFile, in tree: ViewTree) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = special.inode
        entry.attr = specialAttributes(special, in: tree)
        entry.attr_timeout = 0
        entry.entry_timeout = configuration.cacheTimeout
        return entry
    }

    // MARK: read and write

    func readSpecial(_ special: ViewSpecialFile, _ request: fuse_req_t, _ size: Int, _ offset: Int, flags: Int32) {
        let tree = self.tree
        let text: [UInt8]
        do throws(ViewLayerError) {
            _ = try specialCaller(special, request, in: tree)
            guard offset >= 0, size >= 0 else { throw .invalidArgument }
            switch special {
            case .requestList:
                text = requestListText()
            case .request(let app):
                let deferred = requests.reads.make(request, size: size, offset: offset)
                let (status, token) = requests.broker.read(app, register: flags & O_NONBLOCK == 0) { [requests] answer in
                    guard deferred.claim() else { return }
                    Self.reply(deferred.request.request, answer.bytes, deferred.size, deferred.offset)
                    requests.reads.finish(deferred)
                }
                if case .pending = status, let token {
                    deferred.waiting.withLock { $0 = (app, token) }
                    requests.reads.armInterrupt(deferred)
                    return
                }
                requests.reads.finish(deferred)
                switch status {
                case .idle: text = []
                case .answered(let answer): text = answer.bytes
                case .pending: throw .wouldBlock
                }
            }
        } catch {
            fuse_reply_err(request, error.errno)
            return
        }
        Self.reply(request, text, size, offset)
    }

    /// OPEN of a request file: direct I/O, so a READ that waits for the person holds no
    /// page of the page cache (a `stat`, a listing or another reader never waits behind
    /// it), and a descriptor the daemon counts (see `RequestFiles.closed`).
    func openSpecial(_ special: ViewSpecialFile, _ request: fuse_req_t) -> Reply {
        if case .request(let app) = special { requests.opened(app) }
        return .open(Handle(.request(special)), keepCache: false, directIO: true, cacheReaddir: false)
    }

    /// RELEASE of a request file's descriptor.
    func releaseSpecial(_ special: ViewSpecialFile) {
        guard case .request(let app) = special else { return }
        requests.closed(app) { [configuration] withdrawn in configuration.requestEvents?(.withdrawn(withdrawn)) }
    }

    /// Replies to a READ with the part of `text` at `offset`.
    private static func reply(_ request: fuse_req_t, _ text: [UInt8], _ size: Int, _ offset: Int) {
        let start = min(max(0, offset), text.count)
        let end = min(text.count, start + size)
        text[start..<end].withUnsafeBytes { bytes in
            _ = fuse_reply_buf(request, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    func writeSpecial(_ special: ViewSpecialFile, _ request: fuse_req_t, _ input: [UInt8]) {
        respond(request, "write request") { () throws(ViewLayerError) -> Reply in
            let tree = self.tree
            let caller = try specialCaller(special, request, in: tree)
            switch special {
            case .request(let app):
                let pending = try layer.submitRequest(app, input, now: RequestFiles.now(), in: tree)
                requests.written(pending)
                announce(pending)
            case .requestList:
                guard caller == .owner else { throw .permissionDenied }
                for (pending, answer) in try layer.answerRequests(input, in: tree) {
                    configuration.requestEvents?(.settled(pending, answer))
                }
            }
            return .written(input.count)
        }
    }

    /// One line per pending request (`ViewLayer.requestListText`).
    func requestListText() -> [UInt8] { layer.requestListText(now: RequestFiles.now()) }

    /// POLL: readable when the app's request is not pending; otherwise the handle is kept
    /// and notified once the request is settled.
    func poll(_ request: fuse_req_t, _ inode: UInt64, _ handle: OpaquePointer?) {
        let tree = self.tree
        guard let special = layer.specialFile(inode: inode, in: tree), case .request(let app) = special else {
            if let handle { fuse_pollhandle_destroy(handle) }
            fuse_reply_poll(request, UInt32(POLLIN | POLLRDNORM))
            return
        }
        var token: RequestBroker.WaiterToken?
        var status = RequestBroker.Status.idle
        if let handle {
            let deferred = DeferredPoll(handle: handle)
            (status, token) = requests.broker.read(app, register: true) { _ in
                fuse_lowlevel_notify_poll(deferred.handle)
                fuse_pollhandle_destroy(deferred.handle)
            }
            if token == nil { fuse_pollhandle_destroy(handle) }
        } else {
            status = requests.broker.status(of: app)
        }
        if case .pending = status {
            fuse_reply_poll(request, 0)
        } else {
            fuse_reply_poll(request, UInt32(POLLIN | POLLRDNORM))
        }
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
