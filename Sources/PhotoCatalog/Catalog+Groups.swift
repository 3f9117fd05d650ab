import PhotoCore

extension Catalog {
    /// Every catalogued asset's Apple content identifier (the Live Photo pairing key).
    public func contentIdentifiers() throws(CatalogError) -> [AssetID: String] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [AssetID: String] in
            try ContentIdentifierRows.all(in: c.db)
        }
    }

    /// Whether any asset has a content identifier (one indexed row looked at): without one
    /// there is no Live Photo.
    public func holdsContentIdentifiers() throws(CatalogError) -> Bool {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> Bool in
            try c.db.scalarInt("SELECT EXISTS (SELECT 1 FROM content_identifiers)") == 1
        }
    }

    /// The asset groups of `snapshot` (a snapshot of this catalog): Live Photos and RAW+JPEG
    /// pairs, derived from the assets and their stored identifiers (see `AssetGroups`).
    public func assetGroups(of snapshot: LibrarySnapshot) throws(CatalogError) -> AssetGroups {
        AssetGroups(snapshot.assets, identifiers: try contentIdentifiers())
    }
}
