import MediaFormats
import PhotoCore

/// What one EXIF block says, as read by libexif: the values photofs indexes and the
/// reasons for any value that was present but unusable.
public struct EXIFFacts: Hashable, Sendable {
    /// The capture date and the tag it came from (DateTimeOriginal, then
    /// CreateDate/DateTimeDigitized, then DateTime), with the matching OffsetTime* tag.
    public var captureDate: CaptureDate?
    public var dateSource: DateSource?
    public var make: String?
    public var model: String?
    public var lens: String?
    /// 1...8; other values are dropped with a problem.
    public var orientation: Int?
    /// Exif IFD PixelXDimension / PixelYDimension.
    public var pixelXDimension: Int?
    public var pixelYDimension: Int?
    /// IFD0 ImageWidth / ImageLength (the image itself in a TIFF; often absent in JPEG).
    public var imageWidth: Int?
    public var imageLength: Int?
    public var software: String?
    /// UserComment or ImageDescription contains "Screenshot".
    public var saysScreenshot: Bool = false
    /// Signed decimal degrees; nil when absent or invalid (see `problems`).
    public var location: GeoLocation?
    /// Whether the block has a GPS IFD with at least one entry.
    public var hasGPSDirectory: Bool = false
    /// Reasons for values that were present but unusable, and libexif's own complaints.
    /// Never contains a coordinate.
    public var problems: [String] = []

    public init() {}

    /// The pixel size as EXIF states it: PixelX/YDimension, else IFD0 ImageWidth/Length.
    public var pixelWidth: Int? { pixelXDimension ?? imageWidth }
    public var pixelHeight: Int? { pixelYDimension ?? imageLength }
}

/// Why an EXIF block yielded nothing.
public enum EXIFReadError: Error, Hashable, Sendable {
    /// The bytes do not start with a TIFF header.
    case notTIFF
    /// libexif could not allocate its structures.
    case outOfMemory
    /// libexif found no entry in IFD0, the Exif IFD or the GPS IFD (with its reasons).
    case empty(problems: [String])
}
