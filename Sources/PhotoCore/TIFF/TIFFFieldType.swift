/// The byte size of one value of a TIFF field type, or nil for a type this walker does not
/// know (then the length of the entry's value, and so where it ends, is unknown).
///
/// Covers the TIFF 6.0 types, the `IFD` type (13), the BigTIFF 8-byte types (16–18) that
/// some writers put in classic TIFF, and EXIF 3.0's UTF-8 (129).
func tiffTypeSize(_ type: UInt16) -> Int? {
    switch type {
    case 1, 2, 6, 7, 129: 1  // BYTE, ASCII, SBYTE, UNDEFINED, UTF-8
    case 3, 8: 2  // SHORT, SSHORT
    case 4, 9, 11, 13: 4  // LONG, SLONG, FLOAT, IFD
    case 5, 10, 12, 16, 17, 18: 8  // RATIONAL, SRATIONAL, DOUBLE, LONG8, SLONG8, IFD8
    default: nil
    }
}

/// Field types and tags the walker and the planner need by number.
enum TIFFTag {
    static let exifIFD: UInt16 = 0x8769
    static let gpsIFD: UInt16 = 0x8825
    static let interopIFD: UInt16 = 0xA005
    static let subIFDs: UInt16 = 0x014A
    static let xmlPacket: UInt16 = 0x02BC
    /// IPTC-NAA: raw IPTC-IIM datasets (TIFF files saved by Photoshop and others).
    static let iptc: UInt16 = 0x83BB
    /// Photoshop image resources, as in JPEG APP13 (may hold IPTC again, with its digest).
    static let photoshop: UInt16 = 0x8649

    /// GeoTIFF georeferencing: ModelPixelScale, ModelTiepoint, ModelTransformation,
    /// GeoKeyDirectory, GeoDoubleParams, GeoAsciiParams. Together they place the image on
    /// Earth, often to the metre.
    static let geoTIFF: Set<UInt16> = [33550, 33922, 34264, 34735, 34736, 34737]

    static let gpsVersionID: UInt16 = 0x0000
    static let gpsLatitudeRef: UInt16 = 0x0001
    static let gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003
    static let gpsLongitude: UInt16 = 0x0004
}

enum TIFFType {
    static let byte: UInt16 = 1
    static let short: UInt16 = 3
    static let long: UInt16 = 4
    static let rational: UInt16 = 5
    static let ifd: UInt16 = 13
}
