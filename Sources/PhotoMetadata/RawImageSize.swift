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
        let values = TIFFValues(source, order: order)
        var best: (width: Int, height: Int)?
        for directory in layout.directories where directory.kind == .main(0) || directory.kind == .sub {
            if let kind = number(directory.entry(newSubfileType), values), kind != 0 { continue }
            guard let width = number(directory.entry(EXIFTag.imageWidth), values),
                let height = number(directory.entry(EXIFTag.imageLength), values), width > 0, height > 0
            else { continue }
            if best.map({ $0.width * $0.height < width * height }) ?? true { best = (width, height) }
        }
        return best
    }

    /// The first value of a SHORT or LONG entry (the types TIFF allows for a size).
    private static func number(_ entry: TIFFEntry?, _ values: TIFFValues) -> Int? {
        guard let entry, entry.type == TIFFType.short.rawValue || entry.type == TIFFType.long.rawValue else { return nil }
        return values.integer(entry)
    }
}
