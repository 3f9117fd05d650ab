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

    /// Records the pick request `input` of app `appName` (written to its `.request`, or asked
    /// for on its behalf with `title`). A refusal is readable from the app's request file
    /// (`refused: REASON`) and logged a few times a minute per app, not once per write.
    public func submitRequest(_ appName: String, _ input: [UInt8], now: Double, title: String? = nil, in tree: ViewTree)
        throws(ViewLayerError) -> RequestBroker.Pending
    {
        do throws(PickRequestError) {
            return try recordRequest(appName, input, now: now, title: title, in: tree)
        } catch {
            throw Self.refusal(error)
        }
    }

    /// `submitRequest` with the typed reason (for the daemon channel, which shows it).
    public func recordRequest(_ appName: String, _ input: [UInt8], now: Double, title: String? = nil, in tree: ViewTree)
        throws(PickRequestError) -> RequestBroker.Pending
    {
        guard let app = tree.snapshot.apps[appName] else { throw .unknownApp(appName) }
        do throws(PickRequestError) {
            let parsed = try PickRequestParser.parse(input)
            // An app filter that no longer parses offers nothing rather than everything.
            guard let filter = try? Filter(app.filter) else { throw .unreadable }
            let scope = try PickScope(request: parsed, app: app, appFilter: filter, grantCount: tree.snapshot.grants[appName]?.count ?? 0)
            return try requests.submit(scope, now: now, title: title)
        } catch {
            if case .unknownApp = error { throw error }
            if let line = requests.refuse(appName, reason: error.description, now: now) { log(line) }
            throw error
        }
    }

    /// The errno-bearing refusal of a request error.
    public static func refusal(_ error: PickRequestError) -> ViewLayerError {
        switch error {
        case .busy: .busy
        case .noRoomLeft: .quotaExceeded
        case .unknownApp: .notFound
        default: .invalidArgument
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

    /// The names assets `ids` have in `app`'s view, in that order, leaving out those the
    /// view does not show (a pick's answer after its grants landed).
    public func shownNames(of ids: [AssetID], app: String, in tree: ViewTree) -> [[UInt8]] {
        guard let directory = tree.lookup(parent: ViewInode.apps, name: Array(app.utf8)) else { return [] }
        var names: [AssetID: [UInt8]] = [:]
        for child in tree.children(of: directory.inode) {
            if let asset = tree.asset(of: child) { names[asset.id] = child.name }
        }
        return ids.compactMap { names[$0] }
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
