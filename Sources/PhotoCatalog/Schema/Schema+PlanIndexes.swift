extension Schema {
    /// The step that makes a read's plan fetch cheap (`StoredPlans`): one covering index
    /// per plan column, in library path order, holding the asset id and the file version
    /// the plan was made for.
    ///
    /// Why: `assets` is a WITHOUT ROWID table whose rows (paths, texts, three plans) outgrow
    /// the part of a cell SQLite keeps on its page, and SQLite compares a key whose cell
    /// spills onto overflow pages only after reading the whole record into a buffer. A
    /// lookup by id in `assets` did that at every step of its descent (about 10 µs of CPU
    /// in a tight loop, 20-30 µs between FUSE requests, as much as the rest of a small
    /// file's read). These cells are small, so a lookup compares in place, and the files
    /// of one folder are neighbours: one range read fetches the plans of the files a
    /// reader of that folder reads next (`PlanCache`'s read-ahead). SQLite updates them
    /// with every write of a row, so a plan and the version it is checked against stay
    /// one entry.
    ///
    /// Version 10 drops them with the plan columns: the plans moved to their own table
    /// (`planTableStep`), which costs one copy of each plan instead of two.
    static let planIndexesStep = """
        CREATE INDEX assets_plan_strip ON assets(path, id, size, mtime_ns, inode, ctime_ns, redaction_strip);
        CREATE INDEX assets_plan_coarse ON assets(path, id, size, mtime_ns, inode, ctime_ns, redaction_coarse);
        CREATE INDEX assets_plan_private ON assets(path, id, size, mtime_ns, inode, ctime_ns, private_plans);
        """
}
