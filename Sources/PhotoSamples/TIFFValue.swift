import MediaFormats

/// A TIFF fraction, numerator over denominator: RATIONAL with `UInt32` parts, SRATIONAL
/// with `Int32` parts.
public struct TIFFFraction<Part: FixedWidthInteger & Sendable>: Sendable, Hashable {
    public var numerator: Part
    public var denominator: Part

    public init(_ numerator: Part, _ denominator: Part) {
        self.numerator = numerator
        self.denominator = denominator
    }
}

/// An unsigned TIFF RATIONAL.
public typealias TIFFRational = TIFFFraction<UInt32>
/// A signed TIFF SRATIONAL.
public typealias TIFFSignedRational = TIFFFraction<Int32>

/// The value of one IFD entry, typed as TIFF types it.
///
/// `.raw` and `.rawOffset` exist for hostile fixtures: they write whatever type code,
/// count and bytes (or value offset) they are given, consistent or not.
public enum TIFFValue: Sendable, Hashable {
    /// Type 1, BYTE.
    case byte([UInt8])
    /// Type 2, ASCII: the text is written with its terminating NUL (counted).
    case ascii(String)
    /// Type 3, SHORT.
    case short([UInt16])
    /// Type 4, LONG.
    case long([UInt32])
    /// Type 5, RATIONAL.
    case rational([TIFFRational])
    /// Type 7, UNDEFINED: opaque bytes.
    case undefined([UInt8])
    /// Type 10, SRATIONAL.
    case signedRational([TIFFSignedRational])
    /// Any type code and count with these exact value bytes (already in the block's byte
    /// order); inline when they fit in 4 bytes, out of line otherwise.
    case raw(type: UInt16, count: UInt32, bytes: [UInt8])
    /// An entry whose value offset is written verbatim: points wherever the test wants,
    /// inside or outside the block.
    case rawOffset(type: UInt16, count: UInt32, offset: UInt32)

    /// The TIFF type code.
    public var typeCode: UInt16 {
        switch self {
        case .byte: 1
        case .ascii: 2
        case .short: 3
        case .long: 4
        case .rational: 5
        case .undefined: 7
        case .signedRational: 10
        case .raw(let type, _, _), .rawOffset(let type, _, _): type
        }
    }

    /// The count field: number of values (characters including NUL for ASCII).
    public var count: UInt32 {
        switch self {
        case .byte(let v), .undefined(let v): UInt32(truncatingIfNeeded: v.count)
        case .ascii(let s): UInt32(truncatingIfNeeded: s.utf8.count + 1)
        case .short(let v): UInt32(truncatingIfNeeded: v.count)
        case .long(let v): UInt32(truncatingIfNeeded: v.count)
        case .rational(let v): UInt32(truncatingIfNeeded: v.count)
        case .signedRational(let v): UInt32(truncatingIfNeeded: v.count)
        case .raw(_, let count, _), .rawOffset(_, let count, _): count
        }
    }

    /// The value bytes in the given byte order (empty for `.rawOffset`).
    func encoded(_ order: TIFFByteOrder) -> [UInt8] {
        var writer = ByteWriter(order: order)
        switch self {
        case .byte(let v), .undefined(let v): writer.append(v)
        case .ascii(let s):
            writer.append(Array(s.utf8))
            writer.append([0])
        case .short(let v): for x in v { writer.u16(x) }
        case .long(let v): for x in v { writer.u32(x) }
        case .rational(let v): writer.fractions(v)
        case .signedRational(let v): writer.fractions(v)
        case .raw(_, _, let bytes): writer.append(bytes)
        case .rawOffset: break
        }
        return writer.bytes
    }
}

extension ByteWriter {
    /// Writes each fraction as two 4-byte parts (a signed part as its bit pattern).
    fileprivate mutating func fractions<Part>(_ values: [TIFFFraction<Part>]) {
        for value in values {
            u32(UInt32(truncatingIfNeeded: value.numerator))
            u32(UInt32(truncatingIfNeeded: value.denominator))
        }
    }
}

/// One IFD entry: a tag and its value.
public struct TIFFBuilderEntry: Sendable, Hashable {
    public var tag: UInt16
    public var value: TIFFValue

    public init(_ tag: UInt16, _ value: TIFFValue) {
        self.tag = tag
        self.value = value
    }
}

/// One image file directory: entries, and sub-directories reached through pointer tags
/// (ExifIFD 0x8769, GPS 0x8825, Interop 0xA005, ...).
public struct TIFFBuilderDirectory: Sendable, Hashable {
    public var entries: [TIFFBuilderEntry]
    /// Sub-IFDs; each becomes a LONG entry with `tag` holding the sub-IFD's offset.
    public var subdirectories: [TIFFBuilderSubdirectory]

    public init(entries: [TIFFBuilderEntry] = [], subdirectories: [TIFFBuilderSubdirectory] = []) {
        self.entries = entries
        self.subdirectories = subdirectories
    }

    /// Adds an entry (kept in tag order when written).
    public mutating func add(_ tag: UInt16, _ value: TIFFValue) {
        entries.append(TIFFBuilderEntry(tag, value))
    }
}

/// A sub-IFD and the pointer tag that leads to it.
public struct TIFFBuilderSubdirectory: Sendable, Hashable {
    public var tag: UInt16
    public var directory: TIFFBuilderDirectory
}
