import PhotoCore

/// The access log's rows (`access_log`, see `Schema+AccessLog.swift`): written in batches
/// by the daemon's flusher, read by `photofs log` and the report page.
extension Catalog {
    /// Adds `entries` in one transaction (survives a process crash, not fsynced: a log
    /// line is not worth an fsync per second); an entry whose app, day and asset are there
    /// already widens that row.
    public func addAccessLog(_ entries: [AccessLogEntry]) throws(CatalogError) {
        guard !entries.isEmpty else { return }
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction(durability: .processCrash) { () throws(CatalogError) in
                let s = try db.statement(
                    """
                    INSERT INTO access_log(app, day, asset_id, first_read_ns, last_read_ns, reads) VALUES(?1, ?2, ?3, ?4, ?5, ?6)
                    ON CONFLICT(app, day, asset_id) DO UPDATE SET
                        first_read_ns = min(first_read_ns, excluded.first_read_ns),
                        last_read_ns = max(last_read_ns, excluded.last_read_ns),
                        reads = reads + excluded.reads
                    """)
                for entry in entries {
                    try s.bind(1, entry.app)
                    try s.bind(2, entry.day)
                    try s.bind(3, entry.asset.rawValue)
                    try s.bind(4, entry.firstReadNanoseconds)
                    try s.bind(5, entry.lastReadNanoseconds)
                    try s.bind(6, entry.reads)
                    try s.run()
                }
            }
        }
    }

    /// Deletes the entries whose last read is before `nanoseconds`; returns how many.
    @discardableResult
    public func pruneAccessLog(before nanoseconds: Int64) throws(CatalogError) -> Int {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> Int in
            let db = c.db
            return try db.transaction(durability: .processCrash) { () throws(CatalogError) -> Int in
                let s = try db.statement("DELETE FROM access_log WHERE last_read_ns < ?1")
                try s.bind(1, nanoseconds)
                try s.run()
                return db.changes
            }
        }
    }

    /// The entries of `app` (every app when nil) whose last read is at or after `since`
    /// (everything when nil), newest first.
    public func accessLog(app: String? = nil, since: Int64? = nil) throws(CatalogError) -> [AccessLogEntry] {
        try connection.withLock { (c: inout Connection) throws(CatalogError) -> [AccessLogEntry] in
            let s = try c.db.statement(
                """
                SELECT app, day, asset_id, first_read_ns, last_read_ns, reads FROM access_log
                WHERE (?1 IS NULL OR app = ?1) AND last_read_ns >= ?2
                ORDER BY first_read_ns DESC, app, asset_id
                """)
            defer { s.reset() }
            try s.bind(1, app)
            try s.bind(2, since ?? Int64.min)
            var entries: [AccessLogEntry] = []
            while try s.step() {
                guard let asset = AssetID(s.text(2)) else {
                    throw .badStoredValue(column: "access_log.asset_id", detail: "not an asset id")
                }
                entries.append(
                    AccessLogEntry(
                        app: s.text(0), asset: asset, day: s.int(1), firstReadNanoseconds: s.int64(3), lastReadNanoseconds: s.int64(4),
                        reads: s.int(5)))
            }
            return entries
        }
    }
}
