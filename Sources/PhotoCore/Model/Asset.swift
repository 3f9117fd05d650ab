import MediaFormats

/// One photo or video of the library, as the catalog records it.
public struct Asset: Hashable, Sendable, Identifiable {
    public var id: AssetID
    /// Where the file is, relative to the library root.
    public var path: LibraryPath
    public var size: Int64
    /// The file's modification time in nanoseconds since 1970.
    public var mtimeNanoseconds: Int64
    /// The file's inode number on the library's file system (for incremental indexing).
    public var inode: UInt64
    public var metadata: MediaMetadata
    /// How to strip or coarsen location when an app may not see it.
    public var redaction: RedactionPlans

    public init(id: AssetID, path: LibraryPath, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, metadata: MediaMetadata, redaction: RedactionPlans) {
        self.id = id
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.metadata = metadata
        self.redaction = redaction
    }

    /// The capture date, or the file's mtime (as UTC wall-clock) when the file has none.
    public var effectiveDate: CaptureDate {
        if let date = metadata.captureDate { return date }
        return CaptureDate(unixSeconds: mtimeNanoseconds / 1_000_000_000)
    }
}
