/// Finds where a file keeps its metadata, by walking its container structure.
///
/// How failure is signalled: `isComplete == false` means "do not serve this file to a view
/// that hides location" (a structure ran past its parent or the file, a metadata block could
/// not be located, or metadata sits where it cannot be patched in place; such problems start
/// with "unpatchable:"). A problem with `isComplete` still true is informational (a JPEG that
/// ends before its image data, a truncated `mdat`, an EXIF block without a TIFF header, which
/// is still listed so that redaction blanks it whole).
///
/// Every offset in the result is absolute in the file. Besides the container's own XMP,
/// `xmpPackets` lists XMP stored in a TIFF block's IFD0 (tag 0x02BC). The walker never traps and always
/// returns: what it cannot read with certainty it lists in `problems`, and when the
/// container itself is broken it sets `isComplete` to false so that redaction fails closed.
public enum ContainerWalker {
    /// The metadata layout of `source`, read as `format` (from `MediaSniffer`).
    public static func layout(of source: some ByteSource, format: MediaFormat) -> ContainerLayout {
        let reader = SourceReader(source)
        var layout: ContainerLayout
        switch format {
        case .jpeg:
            layout = JPEGWalker(reader: reader).layout()
        case .tiff, .dng, .raw:
            // The whole file is TIFF-structured; libexif and the IFD walker read it directly.
            layout = ContainerLayout(format: format, exifBlocks: [ByteRange(offset: 0, length: reader.size)])
            if !TIFFWalker.isHeader(reader.prefix(at: 0, count: 4)[...]) || reader.size < 8 {
                layout.note("TIFF: no TIFF header", structural: true)
            }
        case .png:
            layout = PNGWalker(reader: reader).layout()
        case .webp:
            layout = WebPWalker(reader: reader).layout()
        case .heic, .heif, .avif:
            layout = HEIFWalker(reader: reader, format: format).layout()
        case .mp4, .mov, .threeGP:
            layout = MovieWalker(reader: reader, format: format).layout()
        case .gif:
            layout = GIFWalker(reader: reader).layout()
        case .jxl:
            layout = JXLWalker(reader: reader).layout()
        case .avi:
            layout = RIFFWalker(reader: reader).layout()
        case .bmp:
            layout = BMPWalker(reader: reader).layout()
        case .bigTIFF:
            // 64-bit offsets: neither libexif nor the IFD walker reads them.
            layout = ContainerLayout(format: format)
            layout.unreadableMetadata = "BigTIFF directories are not read"
        case .mpegTS:
            // AVCHD cameras keep their data (GPS included) in the H.264 stream's SEI messages.
            layout = ContainerLayout(format: format)
            layout.unreadableMetadata = "MPEG-TS (AVCHD) keeps camera data inside the video stream, which is not read"
        }
        layout.format = format
        if [.jpeg, .tiff, .dng, .raw].contains(format) { AFCPTrailer.add(reader: reader, to: &layout) }
        if format == .jpeg { addThumbnailMetadata(reader: reader, layout: &layout) }
        addEmbeddedXMP(reader: reader, layout: &layout)
        switch format {
        case .jpeg, .png, .webp: ImageTrailer.add(reader: reader, to: &layout)
        case .heic, .heif, .avif: ImageTrailer.addMotionPhotoBoxes(reader: reader, to: &layout)
        default: break
        }
        return layout
    }

    /// An IFD1 thumbnail (JPEGInterchangeFormat 0x0201, length 0x0202) that carries metadata
    /// of its own (an EXIF or XMP signature in its first 64 KiB, as some editors leave the
    /// original's EXIF, GPS included, in the thumbnail) is walked like an MPF image.
    /// Thumbnails without such a signature are image data only and are not walked.
    private static func addThumbnailMetadata(reader: SourceReader, layout: inout ContainerLayout) {
        for block in layout.exifBlocks {
            let tiff = TIFFWalker().walk(reader.source, block: block)
            guard let order = tiff.byteOrder, let ifd1 = tiff.directory(.main(1)) else { continue }
            let values = TIFFValues(reader.source, order: order)
            guard let offset = values.integer(ifd1.entry(0x0201)), let length = values.integer(ifd1.entry(0x0202)),
                Int64(offset) + Int64(length) <= block.length, length >= 4
            else { continue }
            let image = ByteRange(offset: block.offset + Int64(offset), length: Int64(length))
            let head = reader.prefix(at: image.offset, count: Int(min(image.length, 1 << 16)))
            let signatures = [JPEGWalker.exifSignature, Array("http://ns.adobe.com/".utf8)]
            let carries = signatures.contains { needle in
                head.count >= needle.count
                    && (0...(head.count - needle.count)).contains { head[$0..<($0 + needle.count)].elementsEqual(needle) }
            }
            if carries { JPEGWalker(reader: reader).walkEmbedded(image, into: &layout) }
        }
    }

    /// XMP kept inside a TIFF block: IFD0's XMLPacket tag (0x02BC), as TIFF, DNG and raw files
    /// (and a few JPEG writers) store it. Its value range joins `xmpPackets`, so that location
    /// in it is blanked like any other packet.
    private static func addEmbeddedXMP(reader: SourceReader, layout: inout ContainerLayout) {
        for block in layout.exifBlocks {
            let tiff = TIFFWalker.firstDirectoryOnly.walk(reader.source, block: block)
            guard let entry = tiff.directory(.main(0))?.entry(EXIFTag.xmlPacket), [1, 2, 7].contains(entry.type), entry.count > 4 else {
                continue
            }
            // Out of line (more than 4 bytes), after the header and inside the block.
            guard let value = entry.value, value.offset >= block.offset + 8 else {
                layout.note("XMP tag in the TIFF block at \(block.offset) points outside it", structural: false)
                continue
            }
            layout.xmpPackets.append(value)
        }
    }
}
