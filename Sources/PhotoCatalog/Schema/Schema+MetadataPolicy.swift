extension Schema {
    /// The step that adds `--metadata keep|private`: `apps.metadata` (every existing app
    /// keeps its metadata, as before) and `assets.private_plans`, the encoded
    /// `PrivatePlans`. Rows written before it have no private plans (NULL: withheld from
    /// private apps) and every file is read again by the next index (inode forgotten, as
    /// in version 2), which stores them.
    static let metadataPolicyStep = """
        ALTER TABLE apps ADD COLUMN metadata TEXT NOT NULL DEFAULT 'keep';
        ALTER TABLE assets ADD COLUMN private_plans BLOB;
        UPDATE assets SET inode = 0;
        """
}
