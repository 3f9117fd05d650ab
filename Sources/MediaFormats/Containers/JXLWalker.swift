/// Walks a JPEG XL file. A bare codestream (`FF 0A`) carries no metadata. The ISO-BMFF
/// container (`JXL ` signature box) keeps EXIF in an `Exif` box (a 4-byte offset to the
/// TIFF header, then the TIFF block) and XMP in an `xml ` box, both rewritable in place.
/// Brotli-compressed boxes (`brob`), JUMBF (`jumb`, which may hold C2PA assertions with a
/// location) and JPEG reconstruction data (`jbrd`, which may keep the original JPEG's
/// other metadata segments) cannot be read or patched: such a file is withheld from views
/// that hide location.
struct JXLWalker {
    static let containerSignature: [UInt8] = [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]

    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .jxl)
        guard reader.bytes(at: 0, count: 12) == Self.containerSignature else {
            // A bare codestream: image data only.
            return layout
        }
        let boxes = BMFFBoxList.boxes(reader: reader, from: 0, to: reader.size, context: "JPEG XL", layout: &layout)
        for box in boxes {
            if box.truncated {
                layout.note(
                    "JPEG XL: box '\(box.name)' at \(box.start) runs past the end of the file",
                    structural: box.name != "jxlc" && box.name != "jxlp")
            }
            switch box.name {
            case "Exif":
                guard let offset = reader.bytes(at: box.payload.offset, count: 4).flatMap({ ByteView($0).u32(0) }),
                    Int64(offset) <= box.payload.length - 4
                else {
                    layout.note("JPEG XL: Exif box at \(box.start) without a TIFF offset", structural: true)
                    continue
                }
                layout.exifBlocks.append(
                    ByteRange(offset: box.payload.offset + 4 + Int64(offset), length: box.payload.length - 4 - Int64(offset)))
            case "xml ":
                layout.xmpPackets.append(box.payload)
            case "brob", "jumb", "jbrd":
                layout.unreadableMetadata = "JPEG XL '\(box.name)' box (compressed or not rewritable metadata)"
            default:
                break
            }
        }
        return layout
    }
}
