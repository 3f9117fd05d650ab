import PhotoCore

/// Where the access log is kept (the catalog, for the daemon): what the flusher writes to.
public protocol AccessLogStore: Sendable {
    /// Adds `entries` in one transaction; an entry whose app, asset and day are already
    /// there widens that row (earliest first read, latest last read, reads added).
    func add(_ entries: [AccessLogEntry]) throws(AccessLogStoreError)
    /// Deletes every entry whose last read is before `nanoseconds`; returns how many.
    func prune(before nanoseconds: Int64) throws(AccessLogStoreError) -> Int
}

/// Why the store could not write (its own words, never asset metadata).
public struct AccessLogStoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
