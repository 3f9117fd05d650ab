/// Finds where a file keeps its metadata, by walking its container structure.
///
/// Every offset in the result is absolute in the file. The walker never traps and always
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
            if TIFFStructure(reader: reader, base: 0, limit: reader.size) == nil {
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
        }
        layout.format = format
        return layout
    }
}
