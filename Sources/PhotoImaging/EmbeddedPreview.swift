import MediaFormats

/// A smaller picture stored inside an image file: the EXIF thumbnail (IFD1), an MPF
/// preview image after a JPEG, or a reduced-resolution image of a TIFF, DNG or raw file.
/// Decoding one costs far less than decoding the main image.
public struct EmbeddedPreview: Hashable, Sendable {
    public enum Encoding: Hashable, Sendable {
        /// A complete JPEG stream.
        case jpeg
        /// Uncompressed 8-bit RGB, chunky, in these strips (absolute ranges, in order).
        case rgbStrips([ByteRange])
    }

    public enum Source: String, Hashable, Sendable {
        case exifThumbnail = "EXIF thumbnail"
        case mpf = "MPF preview"
        case tiffPreview = "TIFF preview"
        case tiffImage = "TIFF image"
    }

    public var source: Source
    public var encoding: Encoding
    /// The JPEG stream for `.jpeg`; the first strip otherwise.
    public var range: ByteRange
    public var width: Int
    public var height: Int
}

/// Finds embedded previews without decoding anything. Every offset comes from the file and
/// is checked against it.
enum EmbeddedPreviewFinder {
    /// The previews in a JPEG file: the primary EXIF block's IFD1 thumbnail and MPF images.
    static func inJPEG(_ bytes: [UInt8], layout: ContainerLayout) -> [EmbeddedPreview] {
        var found: [EmbeddedPreview] = []
        if let block = layout.exifBlocks.first {
            let tiff = TIFFWalker().walk(MemoryByteSource(bytes), block: block)
            if let order = tiff.byteOrder, let ifd1 = tiff.directory(.main(1)) {
                let values = TIFFValues(MemoryByteSource(bytes), order: order)
                if let offset = values.integer(ifd1.entry(0x0201)),
                    let length = values.integer(ifd1.entry(0x0202)),
                    let preview = jpeg(bytes, ByteRange(offset: block.offset + Int64(offset), length: Int64(length)), .exifThumbnail)
                {
                    found.append(preview)
                }
            }
        }
        found += mpfImages(bytes)
        return found
    }

    /// Reduced-resolution images of a TIFF-structured file (DNG and raw previews, TIFF
    /// thumbnails), and the main image of a plain TIFF when it is uncompressed RGB.
    static func inTIFF(_ bytes: [UInt8], format: MediaFormat) -> [EmbeddedPreview] {
        let tiff = TIFFWalker().walk(MemoryByteSource(bytes), block: ByteRange(offset: 0, length: Int64(bytes.count)))
        guard let order = tiff.byteOrder else { return [] }
        let values = TIFFValues(MemoryByteSource(bytes), order: order)
        var found: [EmbeddedPreview] = []
        for directory in tiff.directories {
            switch directory.kind {
            case .main, .sub: break
            default: continue
            }
            let reduced = (values.integer(directory.entry(0x00FE)) ?? 0) & 1 == 1
            let isMain = directory.kind == .main(0)
            guard reduced || (isMain && format == .tiff) else { continue }
            let source: EmbeddedPreview.Source = reduced ? .tiffPreview : .tiffImage
            let compression = values.integer(directory.entry(0x0103)) ?? 1
            let photometric = values.integer(directory.entry(0x0106)) ?? 2
            if compression == 6 || compression == 7, photometric == 6 || photometric == 2 {
                let range: ByteRange
                if let offset = values.integer(directory.entry(0x0201)),
                    let length = values.integer(directory.entry(0x0202))
                {
                    range = ByteRange(offset: Int64(offset), length: Int64(length))
                } else if let offsets = values.integers(directory.entry(0x0111)), offsets.count == 1,
                    let counts = values.integers(directory.entry(0x0117)), counts.count == 1
                {
                    range = ByteRange(offset: Int64(offsets[0]), length: Int64(counts[0]))
                } else {
                    continue
                }
                if let preview = jpeg(bytes, range, source) { found.append(preview) }
            } else if compression == 1, let preview = rgbStrips(bytes, directory, values, source) {
                found.append(preview)
            }
        }
        return found
    }

    /// The smallest preview that still fills `box` (or the whole image, when that is
    /// smaller) and has the main image's shape.
    static func best(_ previews: [EmbeddedPreview], box: Int, imageWidth: Int?, imageHeight: Int?) -> EmbeddedPreview? {
        let usable = previews.filter { preview in
            if let w = imageWidth, let h = imageHeight, w > 0, h > 0 {
                return max(preview.width, preview.height) >= min(box, max(w, h)) && AspectRatio.matches(preview.width, preview.height, w, h)
            }
            return max(preview.width, preview.height) >= box
        }
        return usable.min { $0.width * $0.height < $1.width * $1.height }
    }

    private static func jpeg(_ bytes: [UInt8], _ range: ByteRange, _ source: EmbeddedPreview.Source) -> EmbeddedPreview? {
        guard range.offset >= 0, range.length > 4, range.end <= Int64(bytes.count) else { return nil }
        let start = Int(range.offset)
        guard bytes[start] == 0xFF, bytes[start + 1] == 0xD8 else { return nil }
        guard let size = try? JPEGCodec.dimensions(of: Array(bytes[start..<Int(range.end)])) else { return nil }
        return EmbeddedPreview(source: source, encoding: .jpeg, range: range, width: size.width, height: size.height)
    }

    private static func rgbStrips(_ bytes: [UInt8], _ directory: TIFFDirectory, _ values: TIFFValues, _ source: EmbeddedPreview.Source)
        -> EmbeddedPreview?
    {
        guard let width = values.integer(directory.entry(0x0100)),
            let height = values.integer(directory.entry(0x0101)),
            width > 0, height > 0, width <= DecodeLimits.maxSide, height <= DecodeLimits.maxSide,
            values.integer(directory.entry(0x0106)) == 2,
            values.integer(directory.entry(0x0115)) == 3,
            (values.integer(directory.entry(0x011C)) ?? 1) == 1,
            let bits = values.integers(directory.entry(0x0102)), bits.allSatisfy({ $0 == 8 }),
            let offsets = values.integers(directory.entry(0x0111)),
            let counts = values.integers(directory.entry(0x0117)), offsets.count == counts.count, !offsets.isEmpty
        else { return nil }
        let strips = zip(offsets, counts).map { ByteRange(offset: Int64($0), length: Int64($1)) }
        guard strips.allSatisfy({ $0.offset >= 0 && $0.length >= 0 && $0.end <= Int64(bytes.count) }),
            strips.reduce(Int64(0), { $0 + $1.length }) >= Int64(width * height * 3)
        else { return nil }
        return EmbeddedPreview(source: source, encoding: .rgbStrips(strips), range: strips[0], width: width, height: height)
    }

    /// The images an APP2 `MPF` segment lists after the first (previews, other views).
    private static func mpfImages(_ bytes: [UInt8]) -> [EmbeddedPreview] {
        var at = 2
        var found: [EmbeddedPreview] = []
        while at + 4 <= bytes.count, bytes[at] == 0xFF {
            let marker = bytes[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            if marker == 0xDA || marker == 0xD9 { break }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            guard length >= 2, at + 2 + length <= bytes.count else { break }
            if marker == 0xE2, length > 14, Array(bytes[(at + 4)..<(at + 8)]) == Array("MPF\0".utf8) {
                let base = at + 8
                let block = ByteRange(offset: Int64(base), length: Int64(length - 6))
                let tiff = TIFFWalker().walk(MemoryByteSource(bytes), block: block)
                if let order = tiff.byteOrder, let index = tiff.directory(.main(0)),
                    let entry = index.entry(0xB002), let range = entry.value, entry.type == 7,
                    range.end <= Int64(bytes.count)
                {
                    let values = TIFFValues(MemoryByteSource(bytes), order: order)
                    let entries = min(Int(entry.count) / 16, 64)
                    for i in 1..<max(1, entries) {
                        let e = Int(range.offset) + i * 16
                        let size = values.unsigned(bytes, at: e + 4, width: 4)
                        let offset = values.unsigned(bytes, at: e + 8, width: 4)
                        guard offset > 0 else { continue }
                        if let preview = jpeg(bytes, ByteRange(offset: Int64(base + offset), length: Int64(size)), .mpf) {
                            found.append(preview)
                        }
                    }
                }
            }
            at += 2 + length
        }
        return found
    }
}
