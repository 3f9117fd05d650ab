import SystemKit

extension Catalog {
    /// The `settings` key of when a daemon last began to serve this catalog (wall-clock
    /// nanoseconds as decimal text): written by `prepareFirstWrite`, read by nothing else.
    static let servingSinceKey = "serving_since_ns"

    /// Makes this connection's first write cheap by writing once now: one durable
    /// transaction that records when serving began.
    ///
    /// SQLite starts each connection's write-ahead log afresh: the first commit writes the
    /// log's header and syncs it, syncs the catalog's folder (the log file was just made),
    /// then writes and syncs the frames. Three syncs, of a file that grows from nothing, each
    /// of which waits for the file system's journal: at a million assets this was nearly
    /// all of the first `.picker` select after a mount (15–30 ms, and 300 ms once under
    /// load, against about 1 ms for the next). Done while the views are built, before the
    /// mount is ready, it leaves the first select one sync like every other. A read-only
    /// catalog writes nothing.
    public func prepareFirstWrite() throws(CatalogError) {
        guard !isReadOnly else { return }
        let now = Array(String(SystemClock.wallNanoseconds()).utf8)
        try connection.withLock { (c: inout Connection) throws(CatalogError) in
            let db = c.db
            try db.transaction(durability: accessDurability) { () throws(CatalogError) in
                try Self.setSetting(Self.servingSinceKey, to: now, in: db)
            }
        }
    }

    /// When a daemon last began to serve this catalog (`prepareFirstWrite`), if ever.
    public var servingSince: Int64? {
        get throws(CatalogError) {
            try connection.withLock { (c: inout Connection) throws(CatalogError) -> Int64? in
                try Self.setting(Self.servingSinceKey, in: c.db).flatMap { Int64(String(decoding: $0, as: UTF8.self)) }
            }
        }
    }
}
