/// The request files: `apps/APP/.request`, where a confined app asks the person to pick
/// photos, and `.requests` at the root, where the owner's tools list pending requests and
/// answer them. An app writes one request per `write(2)`; it is narrowed by the app's
/// filter and limit and recorded, or refused (EINVAL malformed, EBUSY another is pending,
/// EDQUOT no room left). Nothing an app writes grants anything: grants change only by the
/// owner's `.picker` writes, and an answer only tells the app what it now sees.
extension ViewLayer {
    /// The special file called `name` in `directory`, if there is one.
    public func specialFile(named name: [UInt8], in directory: ViewNode) -> ViewSpecialFile? {
        if directory.inode == ViewInode.root, name == RequestInode.listName { return .requestList }
        if name == RequestInode.fileName, directory.isDirectory, directory.parent == ViewInode.apps,
            case .app(let app) = directory.scope
        {
            return .request(app: app)
        }
        return nil
    }

    /// The special file with this inode number, if any (only asked for numbers the tree lacks).
    public func specialFile(inode: UInt64, in tree: ViewTree) -> ViewSpecialFile? {
        if inode == RequestInode.list { return .requestList }
        guard inode >= ViewInode.firstDerived else { return nil }
        return tree.snapshot.apps.keys.first { RequestInode.file(app: $0) == inode }.map { .request(app: $0) }
    }

    /// Whether `caller` may see `special`: the owner sees both, an app's uid its own
    /// `.request`, of an app that still exists.
    public func isVisible(_ special: ViewSpecialFile, to caller: ViewCaller, in tree: ViewTree) -> Bool {
        switch special {
        case .requestList: return caller == .owner
        case .request(let app): return AppVisibility.mayEnter(app, caller: caller) && tree.snapshot.apps[app] != nil
        }
    }

    /// The caller, if it may see `special`; ENOENT otherwise.
    public func checkSpecial(_ special: ViewSpecialFile, caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) {
        guard isVisible(special, to: caller, in: tree) else { throw .notFound }
    }

    /// Records the pick request `input` of app `appName` (written to its `.request`).
    public func submitRequest(_ appName: String, _ input: [UInt8], now: Double, in tree: ViewTree) throws(ViewLayerError)
        -> RequestBroker.Pending
    {
        guard let app = tree.snapshot.apps[appName] else { throw .notFound }
        do throws(PickRequestError) {
            let parsed = try PickRequestParser.parse(input)
            // An app filter that no longer parses offers nothing rather than everything.
            guard let filter = try? Filter(app.filter) else { throw .unreadable }
            let scope = try PickScope(request: parsed, app: app, appFilter: filter, grantCount: tree.snapshot.grants[appName]?.count ?? 0)
            return try requests.submit(scope, now: now)
        } catch {
            log("request of app \(appName) refused: \(error)")
            switch error {
            case .busy: throw .busy
            case .noRoomLeft: throw .quotaExceeded
            default: throw .invalidArgument
            }
        }
    }

    /// Runs the owner's `answer APP ID [ASSET-ID...]` and `cancel APP ID` lines (written to
    /// `.requests`), each on its own; returns each settled request with its answer. An
    /// answer names assets the app must already see (ENOENT otherwise).
    public func answerRequests(_ input: [UInt8], in tree: ViewTree) throws(ViewLayerError) -> [(RequestBroker.Pending, PickAnswer)] {
        guard let text = String(validating: input, as: UTF8.self) else { throw .invalidArgument }
        var settled: [(RequestBroker.Pending, PickAnswer)] = []
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
                settled.append((try requests.settle(app, id: id, with: answer), answer))
            } catch {
                throw .notFound
            }
        }
        return settled
    }

    /// The names assets `ids` have in `app`'s view, in that order; ENOENT if one is not there.
    private func viewNames(of ids: [String], app: String, in tree: ViewTree) throws(ViewLayerError) -> [[UInt8]] {
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
    public func requestListText(now: Double) -> [UInt8] {
        var text = ""
        for pending in requests.pending() {
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
}
