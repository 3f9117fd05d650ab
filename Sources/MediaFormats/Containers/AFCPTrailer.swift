/// Reads an AFCP trailer (AXS File Concatenation Protocol), which some tools append to
/// JPEG and TIFF files to carry IPTC-IIM (with place names), text and preview images.
///
/// Layout: the file ends with 12 bytes `AXS!` (big-endian) or `AXS*` (little-endian),
/// the trailer's start offset and a checksum. At the start: the same 4 bytes, a 2-byte
/// version, a 2-byte entry count and 4 bytes, then 12-byte entries (4-character tag, size,
/// absolute offset). The `IPTC` entry's data joins the layout's `iptcBlocks`. A preview
/// image (`Nail`, `PrVw`) that carries metadata of its own, or a trailer that does not
/// walk cleanly, makes the file's metadata unreadable: withheld (fail closed).
enum AFCPTrailer {
    /// The most entries read; the format defines a handful of tags.
    static let maxEntries = 256

    static func add(reader: SourceReader, to layout: inout ContainerLayout) {
        guard reader.size >= 24, let tail = reader.bytes(at: reader.size - 12, count: 12) else { return }
        let end = ByteView(tail)
        guard end.matches("AXS!", at: 0) || end.matches("AXS*", at: 0) else { return }
        let bigEndian = tail[3] == UInt8(ascii: "!")
        let signature = Array(tail[0..<4])
        guard let start32 = end.u32(4, bigEndian: bigEndian), Int64(start32) <= reader.size - 24,
            let head = reader.bytes(at: Int64(start32), count: 12), Array(head[0..<4]) == signature,
            let count = ByteView(head).u16(6, bigEndian: bigEndian), Int(count) <= maxEntries,
            let directory = reader.bytes(at: Int64(start32) + 12, count: 12 * Int(count))
        else {
            layout.unreadableMetadata = "an AFCP trailer that cannot be walked with certainty"
            return
        }
        let view = ByteView(directory)
        for index in 0..<Int(count) {
            let entry = index * 12
            guard let size = view.u32(entry + 4, bigEndian: bigEndian), let offset = view.u32(entry + 8, bigEndian: bigEndian),
                Int64(offset) <= reader.size, Int64(size) <= reader.size - Int64(offset)
            else {
                layout.unreadableMetadata = "an AFCP trailer entry that lies outside the file"
                return
            }
            let data = ByteRange(offset: Int64(offset), length: Int64(size))
            switch String(decoding: directory[entry..<(entry + 4)], as: UTF8.self) {
            case "IPTC":
                layout.iptcBlocks.append(data)
            case "Nail", "PrVw":
                if carriesMetadata(reader: reader, data) {
                    layout.unreadableMetadata = "an AFCP preview image with metadata of its own"
                    return
                }
            default:
                break
            }
        }
    }

    /// Whether an embedded preview holds EXIF, XMP or Photoshop resources (read up to 64 KiB,
    /// where a JPEG keeps its metadata segments).
    private static func carriesMetadata(reader: SourceReader, _ data: ByteRange) -> Bool {
        let bytes = reader.prefix(at: data.offset, count: Int(min(data.length, 1 << 16)))
        let needles = ["Exif\0", "http://ns.adobe.com/", "8BIM", "FLIR\0"].map { Array($0.utf8) }
        return needles.contains { needle in
            bytes.count >= needle.count
                && (0...(bytes.count - needle.count)).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
        }
    }
}
