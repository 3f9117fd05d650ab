/// The schema step that adds `access_log`: which app read which asset on which UTC day
/// (see `AccessLogEntry` for what "read" means). One row per (app, day, asset), with the
/// first and last READ of that day that reached the daemon and how many did. Not tied to
/// `apps` or `assets` by a foreign key: the log tells what happened, also about an app
/// removed since or a file gone since. It never holds a location or a path.
extension Schema {
    /// The SQL of the step.
    static let accessLogStep = """
        CREATE TABLE access_log (
            app TEXT NOT NULL,
            day INTEGER NOT NULL,
            asset_id TEXT NOT NULL,
            first_read_ns INTEGER NOT NULL,
            last_read_ns INTEGER NOT NULL,
            reads INTEGER NOT NULL,
            PRIMARY KEY (app, day, asset_id)
        ) WITHOUT ROWID;
        CREATE INDEX access_log_last_read ON access_log(last_read_ns);
        """
}
