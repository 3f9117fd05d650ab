extension Schema {
    /// The step that adds `content_identifiers`: the Apple content identifier of each asset
    /// that has one (a Live Photo's still and its video carry the same), keyed on the asset
    /// id, so a row follows its asset through moves and leaves with it. Asset groups (Live
    /// Photos, RAW+JPEG pairs) are not stored: they are derived from these rows and the
    /// assets' paths and formats whenever they are asked for (`Catalog.assetGroups`), so an
    /// index run that keeps the assets right keeps the groups right.
    ///
    /// Rows of HEIC, JPEG and MOV files forget their inode (as in version 2) so that the
    /// next index reads them again and records their identifiers.
    static let contentIdentifiersStep = """
        CREATE TABLE content_identifiers (
            asset_id TEXT PRIMARY KEY NOT NULL,
            identifier TEXT NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX content_identifiers_by_identifier ON content_identifiers(identifier);
        UPDATE assets SET inode = 0 WHERE format IN ('heic', 'jpeg', 'mov');
        UPDATE asset_plans SET inode = 0 WHERE id IN (SELECT id FROM assets WHERE format IN ('heic', 'jpeg', 'mov'));
        """
}
