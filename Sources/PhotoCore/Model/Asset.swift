import MediaFormats

/// One photo or video of the library, as the catalog records it.
public struct Asset: Hashable, Sendable, Identifiable {
    // Stored in this order so that the path's 14 bytes and `withheld` share the last word
    // (Swift lays fields out in declaration order): 120 bytes in all.
    public var id: AssetID
    public var size: Int64
    /// The file's modification time in nanoseconds since 1970.
    public var mtimeNanoseconds: Int64
    /// The file's inode number on the library's file system (for incremental indexing).
    public var inode: UInt64
    /// The file's inode change time in nanoseconds since 1970: unlike the mtime, no tool can
    /// set it back, so a rewrite that restores size and mtime still shows. 0 when unknown
    /// (a catalog made before it was recorded): such a row matches no file until re-indexed.
    public var ctimeNanoseconds: Int64
    public var metadata: MediaMetadata
    /// Where the file is, relative to the library root.
    public var path: LibraryPath
    /// Which redaction plans withhold the file. The plans themselves are not kept per asset
    /// (hundreds of bytes each): the read path fetches the one it serves from the catalog
    /// (`RedactionPlanSource`), checked against this asset's size and times.
    public var withheld: WithheldPlans

    public init(
        id: AssetID, path: LibraryPath, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, ctimeNanoseconds: Int64 = 0,
        metadata: MediaMetadata, withheld: WithheldPlans
    ) {
        self.id = id
        self.path = path
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.ctimeNanoseconds = ctimeNanoseconds
        self.metadata = metadata
        self.withheld = withheld
    }

    /// An asset whose file is served with `redaction`: keeps only what the plans withhold
    /// (the catalog stores the plans, see `AssetRecord`).
    public init(
        id: AssetID, path: LibraryPath, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, ctimeNanoseconds: Int64 = 0,
        metadata: MediaMetadata, redaction: RedactionPlans
    ) {
        self.init(
            id: id, path: path, size: size, mtimeNanoseconds: mtimeNanoseconds, inode: inode, ctimeNanoseconds: ctimeNanoseconds,
            metadata: metadata, withheld: WithheldPlans(redaction))
    }

    /// Whether `other` describes the same version of the same file: same id, size, mtime,
    /// inode and ctime. A stored plan serves only the version it was made from.
    public func isSameFile(as other: Asset) -> Bool {
        FileVersion(of: self) == FileVersion(of: other)
    }

    /// The capture date, or the file's mtime (as UTC wall-clock) when the file has none.
    public var effectiveDate: CaptureDate {
        if let date = metadata.captureDate { return date }
        return CaptureDate(unixSeconds: mtimeNanoseconds / 1_000_000_000)
    }
}
