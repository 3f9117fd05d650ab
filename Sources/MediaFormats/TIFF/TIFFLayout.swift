/// What a `TIFFWalker` found in one TIFF block: its byte order, every directory it could
/// reach with the absolute file position of each entry and value, and what went wrong.
public struct TIFFLayout: Hashable, Sendable {
    /// The block that was walked (absolute, starting at the TIFF header).
    public var block: ByteRange
    /// Nil when the block does not start with a valid TIFF header.
    public var byteOrder: TIFFByteOrder?
    /// Directories in the order they were reached.
    public var directories: [TIFFDirectory] = []
    /// Everything that could not be walked with certainty.
    public var problems: [TIFFProblem] = []

    /// The GPS directories (normally one, pointed to from IFD0).
    public var gpsDirectories: [TIFFDirectory] { directories.filter { $0.kind == .gps } }
}

/// Which pointer led to a directory.
public enum TIFFDirectoryKind: Hashable, Sendable {
    /// IFD0, IFD1, ...: the main chain (index in the chain).
    case main(Int)
    /// The EXIF private IFD (tag 0x8769).
    case exif
    /// The GPS IFD (tag 0x8825).
    case gps
    /// The interoperability IFD (tag 0xA005).
    case interop
    /// A SubIFD (tag 0x014A) or one chained after it.
    case sub
}

/// One image file directory: its entries and where its bytes lie in the file.
public struct TIFFDirectory: Hashable, Sendable {
    public var kind: TIFFDirectoryKind
    /// Absolute file offset of the 2-byte entry count.
    public var offset: Int64
    public var entries: [TIFFEntry]
    /// The next-IFD offset as stored (relative to the TIFF header; 0 = none), or nil when
    /// the block ends right after the entries (then `byteRange` leaves the 4 bytes out).
    public var nextIFD: UInt32?

    /// The directory's own bytes: count, entries and next-IFD offset (when inside the block).
    public var byteRange: ByteRange { ByteRange(offset: offset, length: 2 + 12 * Int64(entries.count) + (nextIFD == nil ? 0 : 4)) }
}

/// One 12-byte IFD entry.
public struct TIFFEntry: Hashable, Sendable {
    public var tag: UInt16
    public var type: UInt16
    public var count: UInt32
    /// Absolute file offset of the entry's 12 bytes.
    public var entryOffset: Int64
    /// Where the value's bytes are (absolute): inside the entry when they fit in 4 bytes,
    /// else at the stored offset. Nil when the type is unknown, the size overflows or the
    /// value lies outside the block.
    public var value: ByteRange?
    /// The raw 4-byte value/offset field, in the block's byte order.
    public var valueField: UInt32

    /// Whether the value is stored outside the entry (then `value` points elsewhere).
    public var isOutOfLine: Bool {
        guard let value else { return false }
        return value.offset != entryOffset + 8
    }
}

/// Something in a TIFF block that could not be walked with certainty. Offsets are absolute.
public enum TIFFProblem: Hashable, Sendable {
    /// The block does not start with `II*\0` or `MM\0*` (or is shorter than 8 bytes).
    case notTIFF
    /// The bytes could not be read from the source.
    case readFailed(offset: Int64)
    /// A directory pointer leads outside the block.
    case directoryOutsideBlock(kind: TIFFDirectoryKind, relativeOffset: UInt32)
    /// A directory's entries run past the end of the block.
    case directoryTruncated(kind: TIFFDirectoryKind, offset: Int64, declaredCount: Int)
    /// A directory's entries fit but its 4-byte next-IFD offset lies past the block's end.
    case nextOffsetOutsideBlock(kind: TIFFDirectoryKind, offset: Int64)
    /// A sub-directory pointer with a count of 0: it holds no offset and is not followed.
    case emptyPointer(tag: UInt16, entryOffset: Int64)
    /// A directory pointer leads to a directory already walked.
    case directoryLoop(kind: TIFFDirectoryKind, offset: Int64)
    /// A GPS pointer leads to a directory already walked as another kind (IFD0, EXIF...).
    case gpsDirectoryShared(offset: Int64)
    /// More directories than the walker's limit: it stopped.
    case tooManyDirectories
    /// An entry's type has no known size.
    case unknownType(kind: TIFFDirectoryKind, tag: UInt16, type: UInt16, entryOffset: Int64)
    /// An entry's out-of-line value lies (partly) outside the block, or its size overflows.
    case valueOutsideBlock(kind: TIFFDirectoryKind, tag: UInt16, entryOffset: Int64)
    /// A sub-directory pointer (EXIF, GPS, Interop, SubIFDs) has a type that is not an offset.
    case pointerWrongType(tag: UInt16, type: UInt16, entryOffset: Int64)

    /// Whether location could hide where the walker could not look. A directory or value
    /// outside the block is not a hiding place (its bytes are not in the block), a loop is
    /// already walked, and a value of a type no TIFF or EXIF version defines cannot be
    /// decoded by any reader (its entry is zeroed with the rest of a GPS IFD anyway);
    /// everything else is.
    public var mayHideLocation: Bool {
        switch self {
        case .notTIFF, .readFailed, .directoryTruncated, .tooManyDirectories, .gpsDirectoryShared: true
        case .directoryOutsideBlock, .directoryLoop, .nextOffsetOutsideBlock, .emptyPointer: false
        case .unknownType, .valueOutsideBlock: false
        case .pointerWrongType(let tag, _, _): tag == EXIFTag.gpsIFD
        }
    }
}

extension TIFFDirectoryKind: CustomStringConvertible {
    public var description: String {
        switch self {
        case .main(let index): "IFD\(index)"
        case .exif: "EXIF IFD"
        case .gps: "GPS IFD"
        case .interop: "Interop IFD"
        case .sub: "SubIFD"
        }
    }
}

extension TIFFProblem: CustomStringConvertible {
    /// One sentence for `photofs show` and plan notes; offsets are absolute, in decimal.
    public var description: String {
        switch self {
        case .notTIFF: "no valid TIFF header"
        case .readFailed(let offset): "could not read at \(offset)"
        case .directoryOutsideBlock(let kind, let relative): "\(kind) offset \(relative) lies outside the block"
        case .directoryTruncated(let kind, let offset, let count): "\(kind) at \(offset) claims \(count) entries, more than the block holds"
        case .directoryLoop(let kind, let offset): "\(kind) pointer loops back to the directory at \(offset)"
        case .gpsDirectoryShared(let offset): "GPS pointer leads into another directory at \(offset)"
        case .nextOffsetOutsideBlock(let kind, let offset): "\(kind) at \(offset) ends at the block's end without a next-IFD offset"
        case .emptyPointer(let tag, let at): "pointer tag \(tag) at \(at) has a count of 0"
        case .tooManyDirectories: "more directories or entries than the walker follows"
        case .unknownType(let kind, let tag, let type, let at): "\(kind) entry at \(at) (tag \(tag)) has unknown type \(type)"
        case .valueOutsideBlock(let kind, let tag, let at): "\(kind) entry at \(at) (tag \(tag)) has its value outside the block"
        case .pointerWrongType(let tag, let type, let at): "pointer tag \(tag) at \(at) has type \(type), not an offset"
        }
    }
}
