extension Schema {
    /// The step that adds `assets.location_sources`: where the planner found a location
    /// (`LocationSources`, a bit set), which `has:location` tests. Rows written before it
    /// say "a location" (bit 0) when they hold coordinates and "cannot tell" (the
    /// `unverified` bit) otherwise, so that a filter hiding located photos fails closed,
    /// and every file is read again by the next index (inode forgotten, as in version 2),
    /// which stores the real set with a fresh plan.
    static let locationSourcesStep = """
        ALTER TABLE assets ADD COLUMN location_sources INTEGER NOT NULL DEFAULT 64;
        UPDATE assets SET location_sources = CASE WHEN latitude IS NOT NULL THEN 1 ELSE 64 END, inode = 0;
        """
}
