/// The TIFF/EXIF tag numbers photofs reads, plans redaction for, or writes into sample
/// photos: one table for the walkers, the libexif reader and the sample synthesiser
/// (libexif's tag numbers are C macros that do not import into Swift). Names follow the
/// EXIF/TIFF specifications.
public enum EXIFTag {
    // IFD0 (and IFD1).
    public static let imageWidth: UInt16 = 0x0100
    public static let imageLength: UInt16 = 0x0101
    public static let imageDescription: UInt16 = 0x010E
    public static let make: UInt16 = 0x010F
    public static let model: UInt16 = 0x0110
    public static let orientation: UInt16 = 0x0112
    public static let xResolution: UInt16 = 0x011A
    public static let yResolution: UInt16 = 0x011B
    public static let resolutionUnit: UInt16 = 0x0128
    public static let software: UInt16 = 0x0131
    /// DateTime: when the file was last changed (exiftool's ModifyDate).
    public static let dateTime: UInt16 = 0x0132
    public static let subIFDs: UInt16 = 0x014A
    public static let yCbCrPositioning: UInt16 = 0x0213
    /// XMP packet embedded in a TIFF.
    public static let xmlPacket: UInt16 = 0x02BC
    /// IPTC-NAA: raw IPTC-IIM datasets (TIFF files saved by Photoshop and others).
    public static let iptc: UInt16 = 0x83BB
    /// Photoshop image resources, as in JPEG APP13 (may hold IPTC again, with its digest).
    public static let photoshop: UInt16 = 0x8649
    public static let exifIFD: UInt16 = 0x8769
    public static let gpsIFD: UInt16 = 0x8825
    /// GeoTIFF georeferencing: ModelPixelScale, ModelTiepoint, ModelTransformation,
    /// GeoKeyDirectory, GeoDoubleParams, GeoAsciiParams. Together they place the image on
    /// Earth, often to the metre.
    public static let geoTIFF: Set<UInt16> = [33550, 33922, 34264, 34735, 34736, 34737]

    /// Whether `tag` is one of `geoTIFF`, without hashing (asked for every entry of every
    /// directory when planning).
    public static func isGeoTIFF(_ tag: UInt16) -> Bool {
        switch tag {
        case 33550, 33922, 34264, 34735, 34736, 34737: true
        default: false
        }
    }

    // Exif IFD.
    public static let exifVersion: UInt16 = 0x9000
    public static let dateTimeOriginal: UInt16 = 0x9003
    /// DateTimeDigitized (exiftool's CreateDate).
    public static let dateTimeDigitized: UInt16 = 0x9004
    public static let offsetTime: UInt16 = 0x9010
    public static let offsetTimeOriginal: UInt16 = 0x9011
    public static let offsetTimeDigitized: UInt16 = 0x9012
    public static let componentsConfiguration: UInt16 = 0x9101
    public static let userComment: UInt16 = 0x9286
    public static let flashpixVersion: UInt16 = 0xA000
    public static let colorSpace: UInt16 = 0xA001
    public static let pixelXDimension: UInt16 = 0xA002
    public static let pixelYDimension: UInt16 = 0xA003
    public static let interopIFD: UInt16 = 0xA005
    public static let lensMake: UInt16 = 0xA433
    public static let lensModel: UInt16 = 0xA434

    // GPS IFD.
    public static let gpsVersionID: UInt16 = 0x0000
    public static let gpsLatitudeRef: UInt16 = 0x0001
    public static let gpsLatitude: UInt16 = 0x0002
    public static let gpsLongitudeRef: UInt16 = 0x0003
    public static let gpsLongitude: UInt16 = 0x0004
    public static let gpsAltitudeRef: UInt16 = 0x0005
    public static let gpsAltitude: UInt16 = 0x0006
}
