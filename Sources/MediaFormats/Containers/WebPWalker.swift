/// Walks a WebP's RIFF chunks: `EXIF` (EXIF, with a leading `Exif\0\0` skipped when a
/// writer added one), `XMP ` (XMP), and the VP8X canvas or VP8/VP8L bitstream headers
/// (dimensions). Chunks are padded to an even length.
struct WebPWalker {
    static let maxChunks = 1_000_000

    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .webp)
        guard let header = reader.bytes(at: 0, count: 12), ByteView(header).matches("RIFF", at: 0), ByteView(header).matches("WEBP", at: 8)
        else {
            layout.note("WebP: bad RIFF header", structural: true)
            return layout
        }
        var end = Int64(ByteView(header).u32(4, bigEndian: false) ?? 0) + 8
        if end > reader.size {
            layout.note("WebP: RIFF size runs past the end of the file", structural: true)
            end = reader.size
        }
        layout.imageEnd = end + (end & 1)
        var canvas: (Int, Int)?
        var bitstream: (Int, Int)?
        var pos: Int64 = 12
        var chunks = 0
        while pos + 8 <= end {
            chunks += 1
            guard
                let chunk = reader.riffChunk(
                    at: pos, parentEnd: end, withinLimits: chunks <= Self.maxChunks, format: "WebP", layout: &layout)
            else { break }
            let data = chunk.data
            let length = data.length
            switch chunk.type {
            case "EXIF":
                var block = data
                if let head = reader.bytes(at: data.offset, count: min(Int(length), 6)), head.starts(with: Array("Exif\0".utf8)),
                    length >= 6
                {
                    block = ByteRange(offset: data.offset + 6, length: length - 6)
                }
                layout.exifBlocks.append(block)
                if let head = reader.bytes(at: block.offset, count: 4), !TIFFWalker.isHeader(head[...]) {
                    layout.note("WebP: EXIF chunk at \(pos) has no TIFF header", structural: false)
                }
            case "XMP ":
                layout.xmpPackets.append(data)
            case "VP8X":
                if let v = reader.view(ByteRange(offset: data.offset, length: min(length, 10))), let w = v.u24le(4), let h = v.u24le(7) {
                    canvas = (Int(w) + 1, Int(h) + 1)
                }
            case "VP8 ":
                // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
                if bitstream == nil, let v = reader.view(ByteRange(offset: data.offset, length: min(length, 10))),
                    v.matches([0x9D, 0x01, 0x2A], at: 3),
                    let w = v.u16(6, bigEndian: false), let h = v.u16(8, bigEndian: false)
                {
                    bitstream = (Int(w & 0x3FFF), Int(h & 0x3FFF))
                }
            case "VP8L":
                // Signature 0x2F, then width-1 and height-1 in 14 bits each (little-endian bit order).
                if bitstream == nil, let v = reader.view(ByteRange(offset: data.offset, length: min(length, 5))), v.u8(0) == 0x2F,
                    let bits = v.u32(1, bigEndian: false)
                {
                    bitstream = (Int(bits & 0x3FFF) + 1, Int((bits >> 14) & 0x3FFF) + 1)
                }
            default:
                break
            }
            pos = chunk.next
        }
        if pos < end && layout.isComplete && end - pos < 8 {
            layout.note("WebP: trailing bytes inside the RIFF", structural: false)
        }
        if let (w, h) = canvas ?? bitstream {
            layout.pixelWidth = w
            layout.pixelHeight = h
        }
        return layout
    }
}
