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

/// The TIFF field types by number (TIFF 6.0 and the IFD type), for the walker, the
/// planner, the value accessor and the libexif reader.
public enum TIFFType {
    public static let byte: UInt16 = 1
    public static let ascii: UInt16 = 2
    public static let short: UInt16 = 3
    public static let long: UInt16 = 4
    public static let rational: UInt16 = 5
    public static let signedByte: UInt16 = 6
    public static let undefined: UInt16 = 7
    public static let signedShort: UInt16 = 8
    public static let signedLong: UInt16 = 9
    public static let signedRational: UInt16 = 10
    public static let ifd: UInt16 = 13
}
