import PhotoCore

/// Reading and writing rows of `content_identifiers` (see `Schema.contentIdentifiersStep`):
/// one per asset that carries an Apple content identifier, written and deleted with the
/// asset's row by the index writer.
enum ContentIdentifierRows {
    /// Stores `identifier` for the asset, or removes its row when nil.
    static func set(_ identifier: String?, of id: AssetID, in db: Database) throws(CatalogError) {
        if let identifier {
            let s = try db.statement("INSERT OR REPLACE INTO content_identifiers(asset_id, identifier) VALUES (?1, ?2)")
            try s.bind(1, id.rawValue)
            try s.bind(2, identifier)
            try s.run()
        } else {
            let s = try db.statement("DELETE FROM content_identifiers WHERE asset_id = ?1")
            try s.bind(1, id.rawValue)
            try s.run()
        }
    }

    /// The identifier stored for the asset, if any.
    static func identifier(of id: AssetID, in db: Database) throws(CatalogError) -> String? {
        let s = try db.statement("SELECT identifier FROM content_identifiers WHERE asset_id = ?1")
        defer { s.reset() }
        try s.bind(1, id.rawValue)
        return try s.step() ? s.text(0) : nil
    }

    /// Every catalogued asset's identifier. Rows whose asset is gone (none should be) are
    /// left out by the join.
    static func all(in db: Database) throws(CatalogError) -> [AssetID: String] {
        let s = try db.statement(
            "SELECT c.asset_id, c.identifier FROM content_identifiers c JOIN assets a ON a.id = c.asset_id")
        defer { s.reset() }
        var result: [AssetID: String] = [:]
        while try s.step() {
            if let id = AssetID(s.text(0)) { result[id] = s.text(1) }
        }
        return result
    }
}
