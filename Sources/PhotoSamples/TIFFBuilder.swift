import MediaFormats

/// Serialises TIFF directories into one TIFF-structured block: the header, then each
/// directory of the chain (IFD0, IFD1, ...) followed by its out-of-line values and its
/// sub-IFDs. This is the body of a JPEG APP1 `Exif` segment, a PNG `eXIf` chunk or a
/// HEIC `Exif` item.
///
/// Entries are written in ascending tag order (stable, so deliberate duplicates stay),
/// every IFD and every out-of-line value starts on an even offset, and offsets count from
/// the first byte of the header.
public struct TIFFBuilder: Sendable {
    public var byteOrder: TIFFByteOrder

    public init(byteOrder: TIFFByteOrder) {
        self.byteOrder = byteOrder
    }

    /// Writes the chain of top-level directories (usually just IFD0) and returns the block
    /// with where each directory and each value landed.
    public func build(_ chain: [TIFFBuilderDirectory]) -> TIFFBlock {
        var writer = ByteWriter(order: byteOrder)
        writer.append(byteOrder == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        writer.u16(42)
        var block = TIFFBlock(bytes: [], directoryOffsets: [:], valueOffsets: [:])
        var linkPosition = writer.count
        writer.u32(0)
        for (index, directory) in chain.enumerated() {
            let (offset, nextLink) = write(directory, path: String(index), into: &writer, block: &block)
            writer.patch32(at: linkPosition, UInt32(truncatingIfNeeded: offset))
            linkPosition = nextLink
        }
        block.bytes = writer.bytes
        return block
    }

    /// Writes one directory and everything below it; returns its offset and the position of
    /// its next-IFD link.
    private func write(_ directory: TIFFBuilderDirectory, path: String, into writer: inout ByteWriter, block: inout TIFFBlock) -> (Int, Int)
    {
        writer.alignToWord()
        let offset = writer.count
        block.directoryOffsets[path] = offset
        let pointerTags = Set(directory.subdirectories.map(\.tag))
        var rows: [(tag: UInt16, value: TIFFValue?, sub: Int?)] = directory.entries
            .filter { !pointerTags.contains($0.tag) }
            .map { (tag: $0.tag, value: $0.value, sub: nil) }
        for (index, sub) in directory.subdirectories.enumerated() {
            rows.append((tag: sub.tag, value: nil, sub: index))
        }
        // Stable sort: equal tags keep their insertion order.
        rows = rows.enumerated().sorted { ($0.element.tag, $0.offset) < ($1.element.tag, $1.offset) }.map(\.element)

        writer.u16(UInt16(truncatingIfNeeded: rows.count))
        var outOfLine: [(field: Int, bytes: [UInt8], key: String)] = []
        var pointers: [(field: Int, sub: Int)] = []
        for row in rows {
            writer.u16(row.tag)
            let key = path + ":" + hex4(row.tag)
            guard let value = row.value else {
                writer.u16(4)
                writer.u32(1)
                pointers.append((field: writer.count, sub: row.sub ?? 0))
                writer.u32(0)
                continue
            }
            writer.u16(value.typeCode)
            writer.u32(value.count)
            if case .rawOffset(_, _, let rawOffset) = value {
                writer.u32(rawOffset)
                continue
            }
            let bytes = value.encoded(byteOrder)
            if bytes.count <= 4 {
                block.valueOffsets[key] = writer.count
                writer.append(bytes + [UInt8](repeating: 0, count: 4 - bytes.count))
            } else {
                outOfLine.append((field: writer.count, bytes: bytes, key: key))
                writer.u32(0)
            }
        }
        let nextLink = writer.count
        writer.u32(0)
        for value in outOfLine {
            writer.alignToWord()
            block.valueOffsets[value.key] = writer.count
            writer.patch32(at: value.field, UInt32(truncatingIfNeeded: writer.count))
            writer.append(value.bytes)
        }
        for pointer in pointers {
            let sub = directory.subdirectories[pointer.sub]
            let (subOffset, _) = write(sub.directory, path: path + "/" + hex4(sub.tag), into: &writer, block: &block)
            writer.patch32(at: pointer.field, UInt32(truncatingIfNeeded: subOffset))
        }
        return (offset, nextLink)
    }
}

/// A serialised TIFF block and where its parts landed, so tests can aim at exact bytes.
public struct TIFFBlock: Sendable, Hashable {
    public var bytes: [UInt8]
    /// Offset of each directory, keyed by its path: `"0"` for IFD0, `"1"` for IFD1,
    /// `"0/8769"` for the ExifIFD, `"0/8825"` for the GPS IFD (pointer tags in lowercase hex).
    public var directoryOffsets: [String: Int]
    /// Offset of each entry's value bytes (inline field or out-of-line data), keyed by
    /// directory path, `:` and the tag in hex: `"0/8825:0002"` is GPSLatitude.
    public var valueOffsets: [String: Int]
}

/// A tag as four lowercase hex digits.
func hex4(_ value: UInt16) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}
