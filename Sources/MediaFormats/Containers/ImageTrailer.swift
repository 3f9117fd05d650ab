/// Walks what a JPEG, PNG or WebP carries after its image data (and a HEIC's `mpvd` box): motion photo videos (Google's, declared
/// in XMP by `Container:Directory` items or `GCamera:MicroVideoOffset`; Samsung's
/// `MotionPhoto_Data` block of its SEF trailer), any MP4 or QuickTime file or JPEG found
/// there, MPF images and AFCP trailers (walked elsewhere), and padding.
///
/// A video is walked by the same walker as a video file (`ContainerWalker` over a
/// `SlicedByteSource`), so its location atoms, `mdta` keys and GPS tracks are planned
/// like a video's; an appended JPEG is walked like an MPF image. Bytes that none of these
/// explains, and Samsung's other blocks, are listed in `trailerBlanks`: every plan that
/// hides location or identity zeroes them. A trailer whose declared structure does not fit
/// the file makes the layout incomplete (withheld). The primary image's bytes, up to its
/// EOI marker, are never listed.
///
/// Cost: the image data is scanned for its EOI marker only when something may follow it
/// (the file does not end with EOI, or its XMP or a Samsung or AFCP trailer says so).
enum ImageTrailer {
    /// What a stretch after the image data holds.
    private enum Content {
        case walkedElsewhere, video, jpeg, unknown
        case samsung(SamsungTrailer)
    }

    /// The largest run of bytes checked for being padding; a longer unexplained run is blanked.
    static let maxPaddingCheck = 1 << 20
    /// The label of problems found inside an appended video.
    static let videoLabel = "video appended after the image"

    static func add(reader: SourceReader, to layout: inout ContainerLayout) {
        let size = reader.size
        let endsWithEOI: Bool
        switch layout.format {
        case .jpeg:
            guard layout.imageDataStart != nil else { return }
            endsWithEOI = reader.bytes(at: size - 2, count: 2) == [0xFF, 0xD9]
        default:
            // PNG and WebP state where they end.
            guard let end = layout.imageEnd else { return }
            endsWithEOI = end >= size
        }
        let packets = layout.xmpPackets.compactMap { packet in
            packet.length <= 1 << 20 ? reader.bytes(at: packet.offset, count: Int(packet.length)) : nil
        }
        let google = MotionPhotoXMP(packets: packets)
        let samsung = SamsungTrailer.read(reader)
        let afcp = afcpStart(reader)
        guard !endsWithEOI || google.declaresTrailer || samsung != nil || afcp != nil else { return }
        let imageEnd = layout.imageDataStart.map { endOfImage(reader, from: $0) } ?? layout.imageEnd
        guard let eoi = imageEnd, eoi <= size else { return }  // Truncated: nothing follows.

        var known: [(range: ByteRange, content: Content)] = layout.mpfImages.map { ($0, .walkedElsewhere) }
        var end = size
        if let afcp {
            known.append((ByteRange(offset: afcp, length: size - afcp), .walkedElsewhere))
            end = afcp
        }
        switch samsung {
        case .success(let trailer)?:
            known.append((trailer.extent, .samsung(trailer)))
            end = min(end, trailer.extent.offset)
        case .failure(let error)?:
            layout.note("unpatchable: \(error.reason)", structural: true)
            return
        case nil: break
        }
        // Google's items follow the primary image in order; their lengths place them from the end.
        if google.items.count > 1 {
            for index in stride(from: google.items.count - 1, through: 1, by: -1) {
                let item = google.items[index]
                guard let length = item.length, length >= 0, length <= end - eoi else {
                    layout.note("unpatchable: a motion photo item without a length that fits the file", structural: true)
                    return
                }
                let range = ByteRange(offset: end - length, length: length)
                let mime = item.mime ?? ""
                known.append((range, mime.hasPrefix("video/") ? .video : mime == "image/jpeg" ? .jpeg : .unknown))
                end = range.offset - max(0, google.items[index - 1].padding)
            }
        } else if let offset = google.microVideoOffset {
            guard offset > 0, offset <= end - eoi else {
                layout.note("unpatchable: a motion photo video offset that does not fit the file", structural: true)
                return
            }
            known.append((ByteRange(offset: end - offset, length: offset), .video))
        }
        known.sort { $0.range.offset < $1.range.offset }
        if let first = known.first, first.range.offset < eoi, first.range.length > 0 {
            // MPF images may precede the EOI only in a broken file: walked already, but a
            // declared trailer inside the image data is not what the file says it is.
            if case .walkedElsewhere = first.content {
            } else {
                layout.note("unpatchable: a declared trailer starts inside the image data", structural: true)
                return
            }
        }

        var cursor = eoi
        while cursor < size {
            if let region = known.first(where: { $0.range.offset <= cursor && cursor < $0.range.end }) {
                walk(region.range, region.content, reader: reader, layout: &layout)
                cursor = region.range.end
                continue
            }
            let next = known.first { $0.range.offset > cursor }?.range.offset ?? size
            let gap = ByteRange(offset: cursor, length: next - cursor)
            walk(gap, classify(gap, reader: reader), reader: reader, layout: &layout)
            cursor = next
        }
    }

    /// What an undeclared stretch holds, judged from its first bytes.
    private static func classify(_ gap: ByteRange, reader: SourceReader) -> Content {
        if gap.length <= Int64(maxPaddingCheck), let bytes = reader.bytes(at: gap.offset, count: Int(gap.length)),
            bytes.allSatisfy({ $0 == 0 || $0 == 0xFF })
        {
            return .walkedElsewhere  // Padding: nothing to read.
        }
        let head = ByteView(reader.prefix(at: gap.offset, count: 12))
        if head.matches("ftyp", at: 4) { return .video }
        if head.bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        return .unknown
    }

    private static func walk(_ range: ByteRange, _ content: Content, reader: SourceReader, layout: inout ContainerLayout) {
        guard range.length > 0 else { return }
        switch content {
        case .walkedElsewhere:
            break
        case .unknown:
            blank(range, layout: &layout)
        case .jpeg:
            let slice = SlicedByteSource(base: reader.source, range: range)
            layout.adopt(JPEGWalker(reader: SourceReader(slice)).layout(), at: range.offset, label: "JPEG appended after the image")
        case .video:
            let slice = SlicedByteSource(base: reader.source, range: range)
            guard let format = MediaSniffer.format(of: slice), [.mp4, .mov, .threeGP].contains(format) else {
                blank(range, layout: &layout)
                return
            }
            layout.adopt(ContainerWalker.layout(of: slice, format: format), at: range.offset, label: videoLabel)
        case .samsung(let trailer):
            for block in trailer.blocks {
                if block.name == "MotionPhoto_Data" {
                    walk(block.value, .video, reader: reader, layout: &layout)
                } else {
                    blank(block.value, layout: &layout)
                }
            }
        }
    }

    /// Samsung's HEIC motion photos keep the video in a top-level `mpvd` box: its payload
    /// is walked as a video.
    static func addMotionPhotoBoxes(reader: SourceReader, to layout: inout ContainerLayout) {
        var ignored = ContainerLayout(format: layout.format)
        let top = BMFFBoxList.boxes(reader: reader, from: 0, to: reader.size, context: "HEIF", layout: &ignored)
        for box in top where box.type == fourCCValue("mpvd") && !box.truncated {
            walk(box.payload, .video, reader: reader, layout: &layout)
        }
    }

    /// Lists bytes no walker explains: zeroed by every plan that hides location or identity.
    private static func blank(_ range: ByteRange, layout: inout ContainerLayout) {
        layout.trailerBlanks.append(range)
        layout.opaqueBlocks.append(range)
    }

    /// Where an AFCP trailer ending the file starts (read by `AFCPTrailer`), if there is one.
    private static func afcpStart(_ reader: SourceReader) -> Int64? {
        guard reader.size >= 24, let tail = reader.bytes(at: reader.size - 12, count: 12) else { return nil }
        let view = ByteView(tail)
        guard view.matches("AXS!", at: 0) || view.matches("AXS*", at: 0),
            let start = view.u32(4, bigEndian: tail[3] == UInt8(ascii: "!")), Int64(start) <= reader.size - 24
        else { return nil }
        return Int64(start)
    }

    /// The offset just past the primary image's EOI marker: the first `FF D9` in its
    /// entropy-coded data (which escapes every `FF` it holds), nil when the file ends first.
    static func endOfImage(_ reader: SourceReader, from start: Int64) -> Int64? {
        let chunk = 1 << 20
        var position = start
        var afterFF = false
        while position < reader.size {
            let bytes = reader.prefix(at: position, count: chunk)
            guard !bytes.isEmpty else { return nil }
            let found: Int? = bytes.withUnsafeBufferPointer { buffer in
                for index in 0..<buffer.count {
                    let byte = buffer[index]
                    if afterFF && byte == 0xD9 { return index }
                    afterFF = byte == 0xFF
                }
                return nil
            }
            if let found { return position + Int64(found) + 1 }
            position += Int64(bytes.count)
        }
        return nil
    }
}
