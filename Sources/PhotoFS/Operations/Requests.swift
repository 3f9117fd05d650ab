import CFuse
import Glibc
import PhotoCore

/// The request files: `apps/APP/.request`, where a confined app asks the person to pick
/// photos and reads the answer, and `.requests` at the root, where the owner's tools list
/// pending requests and answer them.
///
/// An app writes one request per `write(2)` (`PickRequest` text). The write is narrowed by
/// the app's filter and limit and recorded, or refused: EINVAL malformed, EBUSY another is
/// pending, EDQUOT no room left to add. A read of a pending request is answered only when
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
    /// The special file called `name` in `directory`, if there is one.
    func specialFile(named name: [UInt8], in directory: ViewNode) -> SpecialFile? {
        if directory.inode == ViewInode.root, name == RequestInode.listName { return .requestList }
        if name == RequestInode.fileName, let app = appName(of: directory) { return .request(app: app) }
        return nil
    }

    /// The special file with this inode number, if any (only asked for numbers the tree lacks).
    func specialFile(inode: UInt64, in tree: ViewTree) -> SpecialFile? {
        if inode == RequestInode.list { return .requestList }
        guard inode >= ViewInode.firstDerived else { return nil }
        return tree.snapshot.apps.keys.first { RequestInode.file(app: $0) == inode }.map { .request(app: $0) }
    }

    /// The app whose view `directory` is (`apps/NAME`).
    private func appName(of directory: ViewNode) -> String? {
        guard directory.isDirectory, directory.parent == ViewInode.apps, case .app(let name) = directory.scope else { return nil }
        return name
    }

    func inode(of special: SpecialFile) -> UInt64 {
        switch special {
        case .request(let app): RequestInode.file(app: app)
        case .requestList: RequestInode.list
        }
    }

    func isVisible(_ special: SpecialFile, to caller: ViewCaller) -> Bool {
        switch (special, caller) {
        case (_, .owner): true
        case (.request(let app), .apps(let names)): names.contains(app)
        default: false
        }
    }

    /// The caller, if it may see `special`; ENOENT otherwise.
    func specialCaller(_ special: SpecialFile, _ request: fuse_req_t, in tree: ViewTree) throws(FileSystemError) -> ViewCaller {
        let caller = try caller(of: request, in: tree)
        guard isVisible(special, to: caller) else { throw .notFound }
        if case .request(let app) = special, tree.snapshot.apps[app] == nil { throw .notFound }
        return caller
    }

    func specialAttributes(_ special: SpecialFile, in tree: ViewTree, truncated: Bool = false) -> stat {
        var status = stat()
        status.st_ino = __ino_t(inode(of: special))
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

    func specialEntry(_ special: SpecialFile, in tree: ViewTree) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = inode(of: special)
        entry.attr = specialAttributes(special, in: tree)
        entry.attr_timeout = 0
        entry.entry_timeout = configuration.cacheTimeout
        return entry
    }

    // MARK: read and write

    func readSpecial(_ special: SpecialFile, _ request: fuse_req_t, _ size: Int, _ offset: Int, flags: Int32) {
        let tree = self.tree
        let text: [UInt8]
        do throws(FileSystemError) {
            _ = try specialCaller(special, request, in: tree)
            guard offset >= 0, size >= 0 else { throw .invalidArgument }
            switch special {
            case .requestList:
                text = requestListText()
            case .request(let app):
                let deferred = DeferredRequest(request: request)
                let (status, registered) = requests.broker.read(app, register: flags & O_NONBLOCK == 0) { answer in
                    Self.reply(deferred.request, answer.bytes, size, offset)
                }
                switch status {
                case .idle: text = []
                case .answered(let answer): text = answer.bytes
                case .pending:
                    if registered { return }
                    throw .refused(errno: EAGAIN)
                }
            }
        } catch {
            fuse_reply_err(request, error.errno)
            return
        }
        Self.reply(request, text, size, offset)
    }

    /// Replies to a READ with the part of `text` at `offset`.
    private static func reply(_ request: fuse_req_t, _ text: [UInt8], _ size: Int, _ offset: Int) {
        let start = min(max(0, offset), text.count)
        let end = min(text.count, start + size)
        text[start..<end].withUnsafeBytes { bytes in
            _ = fuse_reply_buf(request, bytes.baseAddress?.assumingMemoryBound(to: CChar.self), bytes.count)
        }
    }

    func writeSpecial(_ special: SpecialFile, _ request: fuse_req_t, _ input: [UInt8]) {
        respond(request, "write request") { () throws(FileSystemError) -> Reply in
            let tree = self.tree
            let caller = try specialCaller(special, request, in: tree)
            switch special {
            case .request(let app):
                try submitRequest(app, input, in: tree)
            case .requestList:
                guard caller == .owner else { throw .accessDenied }
                try answerRequests(input, in: tree)
            }
            return .written(input.count)
        }
    }

    private func submitRequest(_ appName: String, _ input: [UInt8], in tree: ViewTree) throws(FileSystemError) {
        guard let app = tree.snapshot.apps[appName] else { throw .notFound }
        let pending: RequestBroker.Pending
        do throws(PickRequestError) {
            let parsed = try PickRequestParser.parse(input)
            // An app filter that no longer parses offers nothing rather than everything.
            guard let filter = try? Filter(app.filter) else { throw .unreadable }
            let scope = try PickScope(request: parsed, app: app, appFilter: filter, grantCount: tree.snapshot.grants[appName]?.count ?? 0)
            pending = try requests.broker.submit(scope, now: RequestFiles.now())
        } catch {
            configuration.log("request of app \(appName) refused: \(error)")
            switch error {
            case .busy: throw .refused(errno: EBUSY)
            case .noRoomLeft: throw .refused(errno: EDQUOT)
            default: throw .invalidArgument
            }
        }
        configuration.requestEvents?(.submitted(pending))
        requests.scheduleExpiry(of: pending) { [configuration] expired in configuration.requestEvents?(.settled(expired, .expired)) }
    }

    /// Runs the owner's `answer`/`cancel` lines, each on its own (an answer names assets
    /// the app must already see).
    private func answerRequests(_ input: [UInt8], in tree: ViewTree) throws(FileSystemError) {
        guard let text = String(validating: input, as: UTF8.self) else { throw .invalidArgument }
        for line in text.split(whereSeparator: \.isNewline) {
            let words = line.split(whereSeparator: \.isWhitespace).map(String.init)
            guard words.count >= 3, let id = Int(words[2]) else {
                if words.isEmpty { continue }
                throw .invalidArgument
            }
            let app = words[1]
            let answer: PickAnswer
            switch words[0] {
            case "cancel" where words.count == 3: answer = .cancelled
            case "answer": answer = .selected(try viewNames(of: Array(words.dropFirst(3)), app: app, in: tree))
            default: throw .invalidArgument
            }
            do throws(RequestBrokerError) {
                let pending = try requests.broker.settle(app, id: id, with: answer)
                configuration.requestEvents?(.settled(pending, answer))
            } catch {
                throw .notFound
            }
        }
    }

    /// The names assets `ids` have in `app`'s view, in that order; ENOENT if one is not there.
    private func viewNames(of ids: [String], app: String, in tree: ViewTree) throws(FileSystemError) -> [[UInt8]] {
        guard let directory = tree.lookup(parent: ViewInode.apps, name: Array(app.utf8)) else { throw .notFound }
        var names: [String: [UInt8]] = [:]
        for child in tree.children(of: directory.inode) {
            if let asset = tree.asset(of: child) { names[asset.id.rawValue] = child.name }
        }
        var result: [[UInt8]] = []
        for id in ids {
            guard let name = names[id] else { throw .notFound }
            result.append(name)
        }
        return result
    }

    /// One line per pending request: `id=3 app=editor limit=3 mode=add ordered=yes
    /// waited=12 expires-in=588 media=any(image,video)` (`limit=none` when unlimited).
    func requestListText() -> [UInt8] {
        let now = RequestFiles.now()
        var text = ""
        for pending in requests.broker.pending() {
            let request = pending.scope.request
            text +=
                "id=\(pending.id) app=\(pending.app) limit=\(pending.scope.limit.map(String.init) ?? "none") mode=\(request.mode.rawValue)"
            text += " ordered=\(request.ordered ? "yes" : "no") waited=\(Int(now - pending.submitted))"
            text += " expires-in=\(max(0, Int(pending.deadline - now)))"
            if let media = request.media { text += " media=\(media)" }
            text += "\n"
        }
        return Array(text.utf8)
    }

    /// POLL: readable when the app's request is not pending; otherwise the handle is kept
    /// and notified once the request is settled.
    func poll(_ request: fuse_req_t, _ inode: UInt64, _ handle: OpaquePointer?) {
        let tree = self.tree
        guard let special = specialFile(inode: inode, in: tree), case .request(let app) = special else {
            if let handle { fuse_pollhandle_destroy(handle) }
            fuse_reply_poll(request, UInt32(POLLIN | POLLRDNORM))
            return
        }
        var registered = false
        var status = RequestBroker.Status.idle
        if let handle {
            let deferred = DeferredPoll(handle: handle)
            (status, registered) = requests.broker.read(app, register: true) { _ in
                fuse_lowlevel_notify_poll(deferred.handle)
                fuse_pollhandle_destroy(deferred.handle)
            }
            if !registered { fuse_pollhandle_destroy(handle) }
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
