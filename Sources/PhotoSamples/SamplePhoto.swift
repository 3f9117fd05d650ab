import MediaFormats

/// One photo of a sample library: where it goes and what its file says. Tests compare
/// what an indexer reads against these fields.
public struct SamplePhoto: Sendable, Hashable {
    /// Library-relative path, `/`-separated, plain ASCII.
    public var relativePath: String
    /// The camera named in EXIF; nil for files without EXIF.
    public var camera: SampleCamera?
    /// The local capture time written to EXIF (with its offset when the camera writes
    /// one). For a file without EXIF, the time its mtime is set to, in UTC.
    public var taken: CaptureDate
    public var hasExif: Bool
    /// GPS written to EXIF, when any.
    public var location: GeoLocation?
    /// Also an XMP packet with the date and the location (when there is one).
    public var hasXMP: Bool
    public var orientation: UInt16?
    public var width: Int
    public var height: Int
    /// Seed of the procedural picture: distinct for every photo.
    public var pictureSeed: UInt64
    /// The file's intended mtime, seconds since the epoch: the capture moment in UTC.
    public var modificationTime: Int64
}

/// A generated file: its library-relative path and its bytes.
public struct SampleFile: Sendable, Hashable {
    public var relativePath: String
    public var bytes: [UInt8]
}
