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
/// planner, the value accessor and the libexif reader; entries store the raw number.
public enum TIFFType: UInt16, Sendable {
    case byte = 1, ascii, short, long, rational, signedByte, undefined, signedShort, signedLong, signedRational, float, double, ifd
}
