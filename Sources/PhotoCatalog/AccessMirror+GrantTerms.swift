import PhotoCore

/// Reading and writing what an app holds besides its explicit grants: its rules, its
/// exclusions, its default grant lifetime and its running one-time run.
extension AccessMirror {
    /// Fills in the apps' rules, exclusions, `grantsExpireSeconds` and `onceRun`.
    mutating func loadGrantTerms(from db: Database) throws(CatalogError) {
        let a = try db.statement("SELECT name, grants_expire_s, once_owner FROM apps")
        defer { a.reset() }
        while try a.step() {
            let name = a.text(0)
            apps[name]?.grantsExpireSeconds = a.optionalInt64(1)
            apps[name]?.onceRun = try Self.owner(a.optionalText(2), column: "apps.once_owner")
        }
        let r = try db.statement(
            "SELECT app, filter, granted_at_ns, expires_at_ns, once_owner FROM grant_rules ORDER BY app, position")
        defer { r.reset() }
        while try r.step() {
            let terms = try Self.terms(expiresAt: r.optionalInt64(3), once: r.optionalText(4), column: "grant_rules.once_owner")
            apps[r.text(0)]?.rules.append(GrantRule(filter: r.text(1), grantedAtNanoseconds: r.int64(2), terms: terms))
        }
        let e = try db.statement("SELECT app, asset_id FROM grant_exclusions")
        defer { e.reset() }
        while try e.step() {
            let idText = e.text(1)
            guard let id = AssetID(idText) else {
                throw .badStoredValue(column: "grant_exclusions.asset_id", detail: "not an asset id: \(idText)")
            }
            apps[e.text(0)]?.exclusions.insert(id)
        }
    }

    /// Writes `app`'s rules, exclusions, default lifetime and one-time run where they
    /// differ from `old` (nil: a new app). Runs inside the caller's transaction, after the
    /// app's row is written.
    static func writeGrantTerms(of app: App, replacing old: App?, to db: Database) throws(CatalogError) {
        if old?.grantsExpireSeconds != app.grantsExpireSeconds || old?.onceRun != app.onceRun {
            let s = try db.statement("UPDATE apps SET grants_expire_s = ?2, once_owner = ?3 WHERE name = ?1")
            try s.bind(1, app.name)
            try s.bind(2, app.grantsExpireSeconds)
            try s.bind(3, app.onceRun?.description)
            try s.run()
        }
        // An app has a handful of rules: rewrite them all when any changed.
        if (old?.rules ?? []) != app.rules {
            let d = try db.statement("DELETE FROM grant_rules WHERE app = ?1")
            try d.bind(1, app.name)
            try d.run()
            for (position, rule) in app.rules.enumerated() {
                let s = try db.statement(
                    """
                    INSERT INTO grant_rules(app, position, filter, granted_at_ns, expires_at_ns, once_owner)
                    VALUES(?1, ?2, ?3, ?4, ?5, ?6)
                    """)
                try s.bind(1, app.name)
                try s.bind(2, position)
                try s.bind(3, rule.filter)
                try s.bind(4, rule.grantedAtNanoseconds)
                try s.bind(5, rule.terms.expiresAtNanoseconds)
                try s.bind(6, rule.terms.once?.description)
                try s.run()
            }
        }
        let before = old?.exclusions ?? []
        for id in before.subtracting(app.exclusions) {
            let s = try db.statement("DELETE FROM grant_exclusions WHERE app = ?1 AND asset_id = ?2")
            try s.bind(1, app.name)
            try s.bind(2, id.rawValue)
            try s.run()
        }
        for id in app.exclusions.subtracting(before) {
            let s = try db.statement("INSERT OR IGNORE INTO grant_exclusions(app, asset_id) VALUES(?1, ?2)")
            try s.bind(1, app.name)
            try s.bind(2, id.rawValue)
            try s.run()
        }
    }

    /// A grant's or rule's terms from their columns.
    static func terms(expiresAt: Int64?, once: String?, column: String) throws(CatalogError) -> GrantTerms {
        GrantTerms(expiresAtNanoseconds: expiresAt, once: try owner(once, column: column))
    }

    private static func owner(_ text: String?, column: String) throws(CatalogError) -> RunOwner? {
        guard let text else { return nil }
        guard let owner = RunOwner(text) else { throw .badStoredValue(column: column, detail: "not a run owner: \(text)") }
        return owner
    }
}
