import MediaFormats
import PhotoCore

/// The full-resolution image size of a TIFF, DNG or raw file.
///
/// Raw files and DNGs keep a small preview in IFD0 and the sensor image in a SubIFD (tag
/// 0x014A), which libexif does not follow. The directory that holds the full image is the
/// one whose NewSubfileType (0x00FE) is 0 (the TIFF default when the tag is absent); when
/// several do, the largest wins. Directories come from PhotoCore's own `TIFFWalker`, which
/// bounds every offset and count.
enum RawImageSize {
    static let newSubfileType: UInt16 = 0x00FE

    /// Width and height of the full-resolution image, or nil when no directory states one.
    static func fullResolution(_ source: some ByteSource, block: ByteRange) -> (width: Int, height: Int)? {
        let layout = TIFFWalker().walk(source, block: block)
        guard let order = layout.byteOrder else { return nil }
        var best: (width: Int, height: Int)?
        for directory in layout.directories where directory.kind == .main(0) || directory.kind == .sub {
            if let kind = number(directory, newSubfileType, source, order), kind != 0 { continue }
            guard let width = number(directory, EXIFTag.imageWidth, source, order),
                let height = number(directory, EXIFTag.imageLength, source, order), width > 0, height > 0
            else { continue }
            if best.map({ $0.width * $0.height < width * height }) ?? true { best = (width, height) }
        }
        return best
    }

    /// The first value of a SHORT or LONG entry.
    private static func number(_ directory: TIFFDirectory, _ tag: UInt16, _ source: some ByteSource, _ order: TIFFByteOrder) -> Int? {
        guard let entry = directory.entries.first(where: { $0.tag == tag }), entry.count >= 1, let range = entry.value,
            let bytes = try? source.read(at: range.offset, count: 4), bytes.count >= 2
        else { return nil }
        let bigEndian = order == .bigEndian
        switch entry.type {
        case 3:
            return Int(bigEndian ? UInt16(bytes[0]) << 8 | UInt16(bytes[1]) : UInt16(bytes[1]) << 8 | UInt16(bytes[0]))
        case 4:
            guard bytes.count >= 4 else { return nil }
            let value = bytes.prefix(4).enumerated().reduce(UInt32(0)) { result, pair in
                result | UInt32(pair.element) << (bigEndian ? UInt32(24 - 8 * pair.offset) : UInt32(8 * pair.offset))
            }
            return Int(value)
        default:
            return nil
        }
    }
}
