/// Walks a PNG's chunks from the signature to IEND: `eXIf` (EXIF), `iTXt`/`tEXt` with the
/// keyword `XML:com.adobe.xmp` (XMP), and IHDR (dimensions). Every metadata chunk also
/// goes to `checksummedChunks`, because patching it needs a new CRC.
///
/// Metadata photofs cannot patch in place makes the layout incomplete (`isComplete` false,
/// with a `problems` entry starting "unpatchable"), so redaction withholds the file:
/// - XMP in a compressed `iTXt` (changing a byte changes the deflate stream);
/// - `zxIf` (compressed EXIF, a proposal some tools write);
/// - ImageMagick's hex-encoded `Raw profile type exif`/`xmp`/`APP1` text chunks
///   (`tEXt`, `zTXt` or `iTXt`), which are not TIFF blocks.
/// Text chunks other than XMP (comments, authors, titles; compressed or not) are listed in
/// `retaggedBlocks` for `--metadata private` to hide. Chunk CRCs are not verified. What follows
/// IEND is walked by `ImageTrailer`.
struct PNGWalker {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let xmpKeyword = "XML:com.adobe.xmp"
    static let maxChunks = 1_000_000

    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .png)
        guard reader.bytes(at: 0, count: 8) == Self.signature else {
            layout.note("PNG: bad signature", structural: true)
            return layout
        }
        var pos: Int64 = 8
        for _ in 0..<Self.maxChunks {
            guard pos < reader.size else {
                layout.note("PNG: no IEND chunk", structural: false)
                return layout
            }
            guard let header = reader.bytes(at: pos, count: 8) else {
                layout.note("PNG: truncated chunk header at \(pos)", structural: true)
                return layout
            }
            let view = ByteView(header)
            let length = Int64(view.u32(0) ?? 0)
            let type = fourCC(view.u32(4) ?? 0)
            guard length <= 0x7FFF_FFFF else {
                layout.note("PNG: chunk \(type) at \(pos) has length \(length)", structural: true)
                return layout
            }
            let data = ByteRange(offset: pos + 8, length: length)
            let crcOffset = data.end
            guard crcOffset + 4 <= reader.size else {
                layout.note("PNG: chunk \(type) at \(pos) runs past the end", structural: true)
                return layout
            }
            let checksummed = ChecksummedChunk(covered: ByteRange(offset: pos + 4, length: length + 4), checksumOffset: crcOffset)
            switch type {
            case "IHDR":
                if let ihdr = reader.view(ByteRange(offset: data.offset, length: min(length, 8))), let w = ihdr.u32(0), let h = ihdr.u32(4)
                {
                    layout.pixelWidth = Int(w)
                    layout.pixelHeight = Int(h)
                }
            case "zxIf":
                layout.note("unpatchable: PNG zxIf chunk at \(pos) holds compressed EXIF", structural: true)
            case "eXIf", "exIf":  // exIf: the name before PNG 1.5 extensions settled on eXIf.
                layout.exifBlocks.append(data)
                layout.checksummedChunks.append(checksummed)
                if let head = reader.bytes(at: data.offset, count: 4), !TIFFWalker.isHeader(head[...]) {
                    layout.note("PNG: eXIf chunk at \(pos) has no TIFF header", structural: false)
                }
            case "iTXt", "tEXt", "zTXt":
                text(type: type, data: data, chunk: checksummed, layout: &layout)
            case "IEND":
                layout.imageEnd = crcOffset + 4
                return layout
            default:
                break
            }
            pos = crcOffset + 4
        }
        layout.note("PNG: too many chunks", structural: true)
        return layout
    }

    /// A text chunk: XMP in iTXt (or, non-standard, tEXt), or a hex-encoded raw profile.
    private func text(type: String, data: ByteRange, chunk: ChecksummedChunk, layout: inout ContainerLayout) {
        // The keyword is 1-79 bytes and NUL-terminated.
        let head = ByteView(reader.prefix(at: data.offset, count: Int(min(data.length, 84))))
        guard let (keywordBytes, afterKeyword) = head.cString(0) else {
            privateText(data: data, chunk: chunk, layout: &layout)
            return
        }
        let keyword = keywordBytes.text
        if keyword.hasPrefix("Raw profile type ") {
            let kind = keyword.dropFirst("Raw profile type ".count).lowercased()
            if ["exif", "xmp", "app1", "iptc", "8bim"].contains(kind) {
                layout.note("unpatchable: PNG \(type) '\(keyword)' at \(data.offset) holds hex-encoded metadata", structural: true)
            }
            return
        }
        guard keyword == Self.xmpKeyword else {
            privateText(data: data, chunk: chunk, layout: &layout)
            return
        }
        switch type {
        case "tEXt":
            let skip = Int64(afterKeyword)
            layout.xmpPackets.append(ByteRange(offset: data.offset + skip, length: data.length - skip))
            layout.checksummedChunks.append(chunk)
        case "iTXt":
            // keyword\0, compression flag, method, language tag\0, translated keyword\0, text.
            guard let flag = head.u8(afterKeyword) else {
                layout.note("PNG: truncated iTXt at \(data.offset)", structural: true)
                return
            }
            if flag != 0 {
                layout.note("unpatchable: PNG iTXt XMP at \(data.offset) is compressed", structural: true)
                return
            }
            let rest = ByteView(reader.prefix(at: data.offset, count: Int(min(data.length, 4096))))
            guard let (_, afterLanguage) = rest.cString(afterKeyword + 2), let (_, afterTranslated) = rest.cString(afterLanguage) else {
                layout.note("PNG: malformed iTXt header at \(data.offset)", structural: true)
                return
            }
            let skip = Int64(afterTranslated)
            layout.xmpPackets.append(ByteRange(offset: data.offset + skip, length: data.length - skip))
            layout.checksummedChunks.append(chunk)
        default:
            layout.note("unpatchable: PNG zTXt XMP at \(data.offset) is compressed", structural: true)
        }
    }

    /// The chunk type a text chunk hidden by `--metadata private` gets: ancillary, private,
    /// safe to copy, known to no reader.
    static let hiddenType: [UInt8] = Array("prVt".utf8)

    /// A text chunk other than XMP (a comment, an author, a title, compressed or not):
    /// `--metadata private` renames it and zeros its data.
    private func privateText(data: ByteRange, chunk: ChecksummedChunk, layout: inout ContainerLayout) {
        layout.retaggedBlocks.append(
            RetaggedBlock(tag: ByteRange(offset: data.offset - 4, length: 4), replacement: Self.hiddenType, data: data))
        layout.checksummedChunks.append(chunk)
    }
}
