import PhotoCore

extension Catalog {
    /// Every app, by name.
    public func apps() throws(CatalogError) -> [String: App] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [String: App] in
            try c.access.refreshIfChanged(from: c.db)
            return c.access.apps
        }
    }

    /// One app's grants in selection order ([] for an unknown app).
    public func grants(for app: String) throws(CatalogError) -> [Grant] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [Grant] in
            try c.access.refreshIfChanged(from: c.db)
            return c.access.grants[app]?.map(\.grant) ?? []
        }
    }

    /// Every app's grants in selection order.
    public func allGrants() throws(CatalogError) -> [String: [Grant]] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [String: [Grant]] in
            try c.access.refreshIfChanged(from: c.db)
            return c.access.grantLists()
        }
    }

    /// Makes the stored apps and grants equal to the given ones, in one transaction that
    /// is committed when this returns (fsynced too with `accessDurability` `.powerLoss`,
    /// the default): the picker executor
    /// computes a whole new access state from a write to `.picker` and hands it here.
    ///
    /// Only the difference is written: apps that changed, grants that came or went, and
    /// grants whose place in the selection order changed. An app missing from `apps` is
    /// removed with all its grants. Grants name asset ids, which need not be catalogued
    /// (a grant outlives its file). Throws, writing nothing, when `grants` names an app
    /// that is not in `apps` or one app's list names an asset twice.
    public func replaceAccessState(apps: [String: App], grants: [String: [Grant]]) throws(CatalogError) {
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            var current = c.access
            let next = try db.transaction(durability: accessDurability) { () throws(CatalogError) -> AccessMirror in
                // Inside the write lock, so nobody can commit between this check and our write.
                try current.refreshIfChanged(from: db)
                return try current.write(apps: apps, grants: grants, to: db)
            }
            c.access = next
        }
    }
}
