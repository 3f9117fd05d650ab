/// One line of the access log: an app read an asset (through its view) on one UTC day.
///
/// "Read" means that at least one READ request for the asset's bytes reached the daemon
/// through the app's view that day. Pages the kernel already holds are served without
/// asking the daemon, so a second read of a cached file is not seen; the first read of the
/// day, and any read after the kernel dropped the pages, are. Never holds a location.
public struct AccessLogEntry: Hashable, Sendable {
    public var app: String
    public var asset: AssetID
    /// The UTC day of the reads (days since 1970-01-01).
    public var day: Int
    /// The first and last READ of that day that reached the daemon (ns since the epoch).
    public var firstReadNanoseconds: Int64
    public var lastReadNanoseconds: Int64
    /// How many READ requests of that day reached the daemon (each at most a few hundred KiB).
    public var reads: Int

    public init(app: String, asset: AssetID, day: Int, firstReadNanoseconds: Int64, lastReadNanoseconds: Int64, reads: Int) {
        self.app = app
        self.asset = asset
        self.day = day
        self.firstReadNanoseconds = firstReadNanoseconds
        self.lastReadNanoseconds = lastReadNanoseconds
        self.reads = reads
    }
}
