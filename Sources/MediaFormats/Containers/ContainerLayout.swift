/// A span of bytes in a file.
public struct ByteRange: Hashable, Sendable {
    public var offset: Int64
    public var length: Int64

    public init(offset: Int64, length: Int64) {
        self.offset = offset
        self.length = length
    }

    /// The first byte after the range.
    public var end: Int64 { offset + length }
}

/// Where one file keeps its metadata, found by walking its container (JPEG segments, PNG
/// chunks, RIFF chunks, ISO-BMFF boxes). It records byte positions, because redaction
/// patches bytes in place, and the metadata reader hands the EXIF bytes to libexif.
///
/// Produced by `ContainerWalker.layout(of:format:)`; consumed by the metadata reader and
/// the redaction planner.
public struct ContainerLayout: Hashable, Sendable {
    public var format: MediaFormat
    /// TIFF-structured EXIF blocks. Each range starts at the TIFF header (`II*\0` or
    /// `MM\0*`) and ends where the enclosing segment, chunk or item ends. The first one
    /// is the primary image's; more follow for MPF secondary images. A TIFF or DNG file
    /// is one block covering the whole file.
    public var exifBlocks: [ByteRange] = []
    /// XMP packets (the XML text, standard and extended XMP, iTXt, `XMP ` chunks, `mime` items).
    public var xmpPackets: [ByteRange] = []
    /// Photoshop image resource blocks (`8BIM` resources, after JPEG APP13's
    /// `Photoshop 3.0\0` signature): resource 0x0404 holds IPTC-IIM, with place names.
    public var photoshopResources: [ByteRange] = []
    /// Raw IPTC-IIM data outside Photoshop resources and TIFF tags (an AFCP trailer's
    /// `IPTC` entry).
    public var iptcBlocks: [ByteRange] = []
    /// The pieces of a FLIR thermal camera's FFF record (JPEG APP1 `FLIR\0` segments), in
    /// file order; the record holds a GPS sub-record.
    public var flirChunks: [FLIRChunk] = []
    /// Blocks `--metadata private` hides whole by renaming them to a type no reader
    /// interprets and zeroing their data: JPEG COM segments (comments), PNG text chunks
    /// other than XMP (comments, authors, titles), QuickTime user-data atoms and `ilst`
    /// items (`free`, or key index 0), GIF extensions (label 0xFD), AVI `INFO` texts (`JUNK`).
    public var retaggedBlocks: [RetaggedBlock] = []
    /// Data `--metadata private` fills with zeros: JPEG APPn segments photofs does not
    /// read (maker-specific blocks, JUMBF/C2PA manifests, FlashPix streams, FLIR records).
    public var opaqueBlocks: [ByteRange] = []
    /// Set when the format keeps metadata photofs cannot read or rewrite in place (a
    /// compressed `brob` box, an unknown chunk): the file is withheld from views that
    /// hide location and counts as having one.
    public var unreadableMetadata: String?
    /// Chunks whose checksum covers their data (PNG): patching inside `covered` requires
    /// a new CRC-32 written at `checksumOffset` (4 bytes, big-endian).
    public var checksummedChunks: [ChecksummedChunk] = []
    /// The samples of GoPro GPMF timed-metadata tracks (`gpmd`) and the payload of a
    /// user-data `GPMF` atom: the planner walks them for GPS streams (`GPMFWalker`).
    public var gpmfSamples: [ByteRange] = []
    /// Video facts from the QuickTime/MP4 atoms, for video formats.
    public var movie: MovieInfo?
    /// Videos a still carries after its image data (Google and Samsung motion photos, any
    /// MP4 or QuickTime file appended), walked as videos are, at this file's offsets.
    public var appendedVideos: [MovieInfo] = []
    /// Bytes after the image data that no walker reads with certainty (an unknown trailer,
    /// a Samsung trailer entry other than its video): every plan that hides location or
    /// identity zeroes them, and they count as a location that cannot be verified.
    public var trailerBlanks: [ByteRange] = []
    /// Where the primary JPEG's entropy-coded data starts (after its first SOS header).
    var imageDataStart: Int64?
    /// Where a PNG's IEND chunk or a WebP's RIFF chunk ends: what follows is a trailer.
    var imageEnd: Int64?
    /// The MPF secondary images of a JPEG (already walked), which lie after its image data.
    var mpfImages: [ByteRange] = []
    /// Pixel dimensions from the container itself (SOF, IHDR, VP8/VP8L/VP8X, ispe, tkhd).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// Things that could not be walked with certainty. When non-empty and `isComplete`
    /// is false, redaction must withhold the file from views that hide location.
    public var problems: [String] = []
    /// False when the container itself could not be parsed to its end (truncated, lying
    /// sizes): metadata may hide where the walker could not look.
    public var isComplete: Bool = true
}

/// A block renamed and zeroed by `--metadata private`: `replacement` is written over
/// `tag` (the marker code or chunk type) and `data` becomes zeros.
public struct RetaggedBlock: Hashable, Sendable {
    public var tag: ByteRange
    public var replacement: [UInt8]
    public var data: ByteRange
}

/// One APP1 `FLIR\0` segment: its number and the total count from its 8-byte header, and
/// the range of its data after that header.
public struct FLIRChunk: Hashable, Sendable {
    public var number: Int
    public var total: Int
    public var data: ByteRange
}

/// A chunk whose trailing CRC-32 covers `covered` (PNG: chunk type + data).
public struct ChecksummedChunk: Hashable, Sendable {
    public var covered: ByteRange
    public var checksumOffset: Int64
}

/// What the QuickTime/MP4 atoms of a video say.
public struct MovieInfo: Hashable, Sendable {
    /// `mvhd` creation time (UTC), nil when zero or absent.
    public var creationDate: CaptureDate?
    /// The first video track's `tkhd` width and height.
    public var width: Int?
    public var height: Int?
    /// The location parsed from `©xyz` or the `mdta` ISO 6709 key, if any.
    public var location: GeoLocation?
    /// Camera make/model from `udta`/`mdta` keys, when present.
    public var make: String?
    public var model: String?
    /// Byte ranges of every location-bearing payload: `©xyz`, `loci`, `gps `, `gps0`
    /// atom payloads and the value of the `com.apple.quicktime.location.ISO6709` key.
    public var locationPayloads: [ByteRange] = []
    /// The value of the `com.apple.quicktime.content.identifier` key: a Live Photo's video
    /// carries its still's identifier (see `LivePhotoIdentifier`).
    public var contentIdentifier: String?
}
