/// Applies picker commands to an `AccessState`: pure, no I/O, all or nothing.
///
/// Rules:
/// - A target is resolved as an asset id (a catalogued one, or one the app still holds a
///   grant for), then as a library-relative path (a leading `./` is ignored), then by the
///   `TargetResolving` (paths in the mount); otherwise ENOENT.
/// - `select` appends in the order given; an asset already selected keeps its position.
///   Every selected asset must be one the app would be shown (`AppVisibility`: it passes the
///   app's filter and can be served under its location and metadata policies; EPERM) and the
///   selection may not grow past the app's limit (EDQUOT). `select --where` takes every
///   asset passing its filter that the app would be shown, in capture-date order; if that
///   would pass the limit the command fails as a whole (EDQUOT) rather than selecting an
///   arbitrary part.
/// - Groups (`AssetGroups`: a Live Photo, a RAW+JPEG pair): `select` of one member also
///   selects each other member the app would be shown (one it would not is left out, with
///   no error); `deselect` of one member deselects the whole group. The members count
///   against the limit one by one. `select --where` and rules take exactly what they match.
/// - `deselect` of an asset that is not selected does nothing (deselecting is idempotent).
/// - `app set --limit` below the current selection fails (EDQUOT): lowering a limit never
///   drops grants silently. A filter change keeps grants; the view just hides what no
///   longer passes.
/// - `app add` of an existing name fails (EEXIST); unknown apps fail (ENOENT).
/// - `select --rule` adds a rule grant (the same filter text again replaces its terms); an
///   app has rules or a limit, never both (EDQUOT). `deselect` of an asset a rule covers
///   records an exclusion; `select` of an excluded asset lifts it. `clear` removes grants,
///   rules and exclusions.
/// - Terms: `--for`/`--until`, else the app's `--grants-expire`; `--once`, else the app's
///   running one-time run. A select of an asset already selected changes its terms only
///   when the command gave them (`--for`, `--until`, `--once`): a default never turns a
///   lasting grant into a passing one.
public enum PickerExecutor {
    /// Applies statements in order to a copy of `state` and returns the new state and what
    /// changed, or throws the first error, in which case nothing of the write applies.
    /// `now` is the grant time in nanoseconds since 1970.
    public static func apply(
        _ statements: [PickerStatement], to state: AccessState, assets: AssetIndex, resolver: some TargetResolving = NoMountPaths(),
        now: Int64
    ) throws(PickerError) -> (AccessState, [AccessChange]) {
        var working = state
        for statement in statements {
            try apply(statement.command, line: statement.line, to: &working, assets: assets, resolver: resolver, now: now)
        }
        return (working, AccessChange.between(state, working))
    }

    /// Applies commands that did not come from text (errors carry line 0).
    public static func apply(
        _ commands: [PickerCommand], to state: AccessState, assets: AssetIndex, resolver: some TargetResolving = NoMountPaths(),
        now: Int64
    ) throws(PickerError) -> (AccessState, [AccessChange]) {
        try apply(commands.map { PickerStatement($0) }, to: state, assets: assets, resolver: resolver, now: now)
    }

    private static func apply(
        _ command: PickerCommand, line: Int, to state: inout AccessState, assets: AssetIndex, resolver: some TargetResolving, now: Int64
    ) throws(PickerError) {
        switch command {
        case .appAdd(let name, let options):
            guard state.apps[name] == nil else { throw .appExists(name, line: line) }
            state.apps[name] = App(
                name: name, filter: options.filter?.source ?? "", locationPolicy: options.location ?? .strip,
                selectionLimit: options.limit ?? 0, uid: options.uid?.value, grantsExpireSeconds: options.grantsExpire?.value,
                representation: options.representation ?? .original, quality: options.quality ?? JPEGQualityText.defaultQuality,
                metadataPolicy: options.metadata ?? .keep)
            state.grants[name] = state.grants[name] ?? []

        case .appSet(let name, let options):
            guard var app = state.apps[name] else { throw .unknownApp(name, line: line) }
            if let filter = options.filter { app.filter = filter.source }
            if let location = options.location { app.locationPolicy = location }
            if let metadata = options.metadata { app.metadataPolicy = metadata }
            if let uid = options.uid { app.uid = uid.value }
            if let expire = options.grantsExpire { app.grantsExpireSeconds = expire.value }
            if let representation = options.representation { app.representation = representation }
            if let quality = options.quality { app.quality = quality }
            if let limit = options.limit {
                if limit > 0 && !app.rules.isEmpty { throw .ruleWithLimit(app: name, line: line) }
                let selected = state.grants[name]?.count ?? 0
                if limit > 0 && selected > limit {
                    throw .limitExceeded(app: name, limit: limit, wouldHave: selected, line: line)
                }
                app.selectionLimit = limit
            }
            state.apps[name] = app

        case .appRemove(let name):
            guard state.apps.removeValue(forKey: name) != nil else { throw .unknownApp(name, line: line) }
            state.grants[name] = nil

        case .select(let name, let targets):
            try apply(
                .selectWith(app: name, targets: targets, grant: GrantOptions()), line: line, to: &state, assets: assets, resolver: resolver,
                now: now)

        case .selectWith(let name, let targets, let options):
            var app = try existing(name, in: state, line: line)
            let terms = try terms(options, app: app, now: now, line: line)
            let visibility = AppVisibility(app)
            var grants = state.grants[name] ?? []
            var selected = Selection(grants, targets: targets.count)
            for target in targets {
                let id = try resolve(
                    target, selected: { selected.contains($0) || app.exclusions.contains($0) }, assets: assets, resolver: resolver,
                    line: line)
                guard !selected.contains(id) else {
                    if options != GrantOptions(), let at = grants.firstIndex(where: { $0.asset == id }) { grants[at].terms = terms }
                    continue
                }
                // The one visibility rule: a grant the app could never be shown is refused,
                // so it cannot use up the app's limit.
                let why = visibility.classify(assets[id])
                switch why {
                case .visible: break
                case .missing, .filteredOut: throw .outsideFilter(app: name, asset: id, line: line)
                case .withheld, .withheldPrivate: throw .notServable(app: name, asset: id, why: why, line: line)
                }
                grants.append(Grant(asset: id, grantedAtNanoseconds: now, terms: terms))
                selected.insert(id)
                app.exclusions.remove(id)
                // The rest of its group comes along, each member only when the app would be
                // shown it: the member the user named decides, and no filter is bypassed.
                for partner in assets.groups.partners(of: id) where !selected.contains(partner) {
                    guard let member = assets[partner], visibility.shows(member) else { continue }
                    grants.append(Grant(asset: partner, grantedAtNanoseconds: now, terms: terms))
                    selected.insert(partner)
                    app.exclusions.remove(partner)
                }
            }
            try checkLimit(app, count: grants.count, line: line)
            state.grants[name] = grants
            state.apps[name] = app

        case .selectWhere(let name, let whereFilter):
            try apply(
                .selectWhereWith(app: name, filter: whereFilter, grant: GrantOptions()), line: line, to: &state, assets: assets,
                resolver: resolver, now: now)

        case .selectWhereWith(let name, let whereFilter, let options):
            var app = try existing(name, in: state, line: line)
            let terms = try terms(options, app: app, now: now, line: line)
            let visibility = AppVisibility(app)
            var grants = state.grants[name] ?? []
            var positions: [AssetID: Int] = [:]
            for (at, grant) in grants.enumerated() { positions[grant.asset] = at }
            // Only what the app would be shown: a withheld asset neither joins nor counts.
            for asset in assets.inDateOrder where whereFilter.matches(asset) && visibility.shows(asset) {
                if let at = positions[asset.id] {
                    if options != GrantOptions() { grants[at].terms = terms }
                    continue
                }
                grants.append(Grant(asset: asset.id, grantedAtNanoseconds: now, terms: terms))
                app.exclusions.remove(asset.id)
            }
            try checkLimit(app, count: grants.count, line: line)
            state.grants[name] = grants
            state.apps[name] = app

        case .selectRule(let name, let ruleFilter, let options):
            var app = try existing(name, in: state, line: line)
            if app.selectionLimit > 0 { throw .ruleWithLimit(app: name, line: line) }
            let rule = GrantRule(
                filter: ruleFilter.source, grantedAtNanoseconds: now, terms: try terms(options, app: app, now: now, line: line))
            if let at = app.rules.firstIndex(where: { $0.filter == rule.filter }) {
                app.rules[at].terms = rule.terms
            } else {
                app.rules.append(rule)
            }
            state.apps[name] = app

        case .deselectRule(let name, let text):
            var app = try existing(name, in: state, line: line)
            app.rules.removeAll { $0.filter == text }
            // Exclusions only carve assets out of rules: with none left they mean nothing.
            if app.rules.isEmpty { app.exclusions = [] }
            state.apps[name] = app

        case .onceBegin(let name, let owner):
            var app = try existing(name, in: state, line: line)
            if let running = app.onceRun, running != owner { throw .onceRunGoing(app: name, line: line) }
            app.onceRun = owner
            state.apps[name] = app

        case .onceEnd(let name, let owner):
            _ = try existing(name, in: state, line: line)
            state.endOnceRun(of: name, owner: owner)

        case .deselect(let name, let targets):
            var app = try existing(name, in: state, line: line)
            let grants = state.grants[name] ?? []
            var removing: Set<AssetID> = []
            let selected = Selection(grants, targets: targets.count)
            for target in targets {
                let id = try resolve(
                    target, selected: { selected.contains($0) || app.exclusions.contains($0) }, assets: assets, resolver: resolver,
                    line: line)
                // A group leaves whole: an app keeps no Live Photo video whose still went.
                for member in [id] + assets.groups.partners(of: id) {
                    removing.insert(member)
                    if let asset = assets[member], state.ruleCovers(asset, app: app, at: now) { app.exclusions.insert(member) }
                }
            }
            state.grants[name] = grants.filter { !removing.contains($0.asset) }
            state.apps[name] = app

        case .clear(let name):
            var app = try existing(name, in: state, line: line)
            app.rules = []
            app.exclusions = []
            state.grants[name] = []
            state.apps[name] = app
        }
    }

    private static func existing(_ name: String, in state: AccessState, line: Int) throws(PickerError) -> App {
        guard let app = state.apps[name] else { throw .unknownApp(name, line: line) }
        return app
    }

    /// How a grant made by a command ends: its own options, else the app's defaults.
    private static func terms(_ options: GrantOptions, app: App, now: Int64, line: Int) throws(PickerError) -> GrantTerms {
        var terms = GrantTerms(once: options.once ?? app.onceRun)
        switch options.lifetime {
        case .seconds(let seconds)?:
            terms.expiresAtNanoseconds = now &+ seconds * 1_000_000_000
        case .until(let instant)?:
            guard instant > now else { throw .expiryPassed(line: line) }
            terms.expiresAtNanoseconds = instant
        case nil:
            terms.expiresAtNanoseconds = app.grantsExpireSeconds.map { now &+ $0 * 1_000_000_000 }
        }
        return terms
    }

    private static func checkLimit(_ app: App, count: Int, line: Int) throws(PickerError) {
        if app.selectionLimit > 0 && count > app.selectionLimit {
            throw .limitExceeded(app: app.name, limit: app.selectionLimit, wouldHave: count, line: line)
        }
    }

    /// Finds the asset a target names; `selected` lets a deselect name an asset by id
    /// after its file left the library.
    static func resolve(
        _ target: PickerTarget, selected: (AssetID) -> Bool, assets: AssetIndex, resolver: some TargetResolving, line: Int
    ) throws(PickerError) -> AssetID {
        let bytes = target.bytes
        if let text = String(validating: bytes, as: UTF8.self), let id = AssetID(text),
            assets[id] != nil || selected(id)
        {
            return id
        }
        var relative = bytes[...]
        while relative.starts(with: Array("./".utf8)) {
            relative = relative.dropFirst(2).drop(while: { $0 == UInt8(ascii: "/") })
        }
        if !relative.isEmpty, relative.first != UInt8(ascii: "/"), let asset = assets.asset(at: LibraryPath(bytes: Array(relative))) {
            return asset.id
        }
        if let id = resolver.resolve(bytes), assets[id] != nil || selected(id) {
            return id
        }
        throw .unknownAsset(target: bytes, line: line)
    }
}

/// Which assets an app has selected, for the membership checks of one command: a few
/// targets (one `select` from the picker) scan the list, which is cheaper than hashing an
/// app's 1,000 grants; many targets get a set.
private struct Selection {
    private var set: Set<AssetID>?
    /// The list when the command began (not copied: the command's own list grows apart).
    private let before: [Grant]
    private var added: [AssetID] = []

    init(_ grants: [Grant], targets: Int) {
        before = grants
        set = targets > 8 ? Set(grants.map(\.asset)) : nil
    }

    func contains(_ id: AssetID) -> Bool {
        if let set { return set.contains(id) }
        return added.contains(id) || before.contains { $0.asset == id }
    }

    mutating func insert(_ id: AssetID) {
        if set != nil { set?.insert(id) } else { added.append(id) }
    }
}
