extension AccessState {
    /// The apps that have rule grants: their views change when the library does, not only
    /// when the picker is written.
    public var appsWithRules: Set<String> {
        Set(apps.values.lazy.filter { !$0.rules.isEmpty }.map(\.name))
    }

    /// An app's members, in view order: its explicit grants in selection order, then every
    /// asset one of its rules matches (and its filter passes) in capture-date order; minus
    /// its exclusions and whatever has expired by `now` (nanoseconds since 1970). Each id
    /// once. Explicit grants are listed whether or not their asset still exists or passes
    /// the filter (the view and the renderer decide what to show of them); an unknown app
    /// has none, and a rule or app filter that no longer parses matches nothing (fails closed).
    public func members(of name: String, in assets: AssetIndex, at now: Int64) -> [AssetID] {
        guard let app = apps[name] else { return [] }
        var members: [AssetID] = []
        var seen = Set<AssetID>()
        for grant in grants[name] ?? [] where !grant.terms.hasExpired(at: now) && !app.exclusions.contains(grant.asset) {
            if seen.insert(grant.asset).inserted { members.append(grant.asset) }
        }
        let rules = liveRuleFilters(of: app, at: now)
        guard !rules.isEmpty, let filter = try? Filter(app.filter) else { return members }
        for asset in assets.inDateOrder
        where !seen.contains(asset.id) && !app.exclusions.contains(asset.id) && rules.contains(where: { $0.matches(asset) })
            && filter.matches(asset)
        {
            seen.insert(asset.id)
            members.append(asset.id)
        }
        return members
    }

    /// Whether one of the app's unexpired rules (with its filter) grants `asset`, exclusions aside.
    public func ruleCovers(_ asset: Asset, app: App, at now: Int64) -> Bool {
        let rules = liveRuleFilters(of: app, at: now)
        guard !rules.isEmpty, let filter = try? Filter(app.filter), filter.matches(asset) else { return false }
        return rules.contains { $0.matches(asset) }
    }

    private func liveRuleFilters(of app: App, at now: Int64) -> [Filter] {
        app.rules.compactMap { rule in rule.terms.hasExpired(at: now) ? nil : try? Filter(rule.filter) }
    }
}
