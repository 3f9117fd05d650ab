/// A larger SQLite page cache and WAL while an index run writes.
///
/// An index run inserts rows whose index keys (fingerprint, id, path) land all over their
/// b-trees. With SQLite's default cache of about 2 MB, a page written by one batch is
/// evicted before the next batch needs it and is read back from the WAL or the file: a
/// fresh index of 10,000 small photos read about 30 KiB of its own catalog per file, ten
/// times the photos themselves. The run keeps up to `indexCacheKiB` of pages instead and
/// gives them back when it ends, so a mount that indexed keeps its usual footprint. The WAL
/// is checkpointed every `indexCheckpointPages` instead of every 1,000 pages: each
/// checkpoint copies pages the next batch dirties again and waits for an fdatasync (24 of
/// the 41 a fresh index of 10,000 small photos made; the disk's flush is slow when others
/// write).
extension Catalog {
    /// The page cache an index run may use, in KiB.
    static let indexCacheKiB = 64 << 10
    /// The WAL pages between automatic checkpoints while an index run writes (64 MiB);
    /// SQLite's default, 1,000, comes back after it.
    static let indexCheckpointPages = 16384

    /// Runs `body` with the connection's page cache raised to `indexCacheKiB` and its
    /// checkpoints spaced by `indexCheckpointPages`, then puts the previous cache size back
    /// (which frees the pages over it) and the default checkpoint interval.
    func withIndexCache<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let previous = try? connection.withLock { (c: inout Connection) throws(CatalogError) -> Int64? in
            let size = try c.db.scalarInt("PRAGMA cache_size")
            try c.db.execute("PRAGMA cache_size=-\(Self.indexCacheKiB)")
            try c.db.execute("PRAGMA wal_autocheckpoint=\(Self.indexCheckpointPages)")
            return size
        }
        defer {
            if let previous = previous.flatMap({ $0 }) {
                _ = try? connection.withLock { (c: inout Connection) throws(CatalogError) in
                    try c.db.execute("PRAGMA cache_size=\(previous)")
                    try c.db.execute("PRAGMA wal_autocheckpoint=1000")
                }
            }
        }
        return try body()
    }
}
