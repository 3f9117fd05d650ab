/// Walks a JPEG's marker segments from SOI to SOS and records where its metadata lives:
/// APP1 EXIF and XMP (standard and extended), APP2 MPF secondary images (walked as JPEGs
/// of their own), APP13 Photoshop image resources (which carry IPTC-IIM), and the SOF
/// dimensions. The entropy-coded data after SOS is not read. For `--metadata private` it
/// also lists COM segments (`retaggedBlocks`) and the APPn segments it does not read
/// (`opaqueBlocks`: APP1 other than EXIF/XMP/FLIR, APP2 other than ICC/MPF, APP3-APP12,
/// APP13 other than Photoshop, APP15).
///
/// What follows the image data (appended videos, maker trailers) is walked by
/// `ImageTrailer`. Not handled: JPEG segments hidden behind junk bytes: junk where a
/// marker should be ends the walk and marks the layout incomplete.
struct JPEGWalker {
    static let exifSignature: [UInt8] = Array("Exif\0".utf8)
    static let xmpSignature: [UInt8] = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    static let extendedXMPSignature: [UInt8] = Array("http://ns.adobe.com/xmp/extension/\0".utf8)
    static let mpfSignature: [UInt8] = Array("MPF\0".utf8)
    static let photoshopSignature: [UInt8] = Array("Photoshop 3.0\0".utf8)
    static let flirSignature: [UInt8] = Array("FLIR\0".utf8)
    /// The most MPF images followed; real files have two or three.
    static let maxMPFImages = 32

    let reader: SourceReader

    /// The layout of the JPEG at the start of the file, with its MPF images.
    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .jpeg)
        var secondary: [ByteRange] = []
        walk(from: 0, end: reader.size, primary: true, layout: &layout, secondary: &secondary)
        layout.mpfImages = secondary
        var seen: Set<Int64> = [0]
        for image in secondary where seen.insert(image.offset).inserted {
            var ignored: [ByteRange] = []
            walk(from: image.offset, end: image.end, primary: false, layout: &layout, secondary: &ignored)
        }
        return layout
    }

    /// Walks a JPEG embedded in the file (an IFD1 thumbnail, a preview) as a secondary
    /// image: its own EXIF, XMP and IPTC join the layout.
    func walkEmbedded(_ image: ByteRange, into layout: inout ContainerLayout) {
        var ignored: [ByteRange] = []
        walk(from: image.offset, end: image.end, primary: false, layout: &layout, secondary: &ignored)
    }

    /// Walks one JPEG image occupying `[start, end)`. `primary` decides whether SOF sets the
    /// layout's dimensions and whether MPF entries are collected into `secondary`.
    private func walk(from start: Int64, end: Int64, primary: Bool, layout: inout ContainerLayout, secondary: inout [ByteRange]) {
        let label = primary ? "JPEG" : "MPF image at \(start)"
        guard let soi = reader.bytes(at: start, count: 2), soi == [0xFF, 0xD8] else {
            layout.note("\(label): no SOI marker", structural: true)
            return
        }
        var pos = start + 2
        while true {
            guard pos < end else {
                // A file that ends cleanly between segments hides nothing; say so anyway.
                layout.note("\(label): ended before the image data (no SOS)", structural: false)
                return
            }
            // A marker is one or more 0xFF fill bytes followed by the marker code.
            let window = reader.prefix(at: pos, count: Int(min(end - pos, 64)))
            guard let first = window.first else {
                layout.note("\(label): unreadable at \(pos)", structural: true)
                return
            }
            guard first == 0xFF else {
                layout.note("\(label): expected a marker at \(pos), found junk", structural: true)
                return
            }
            var fill = 0
            while fill < window.count, window[fill] == 0xFF { fill += 1 }
            if fill == window.count {
                guard fill > 1 else {
                    layout.note("\(label): file ends inside a marker at \(pos)", structural: true)
                    return
                }
                // Long runs of fill bytes: skip all but the last and look again.
                pos += Int64(fill - 1)
                continue
            }
            let marker = window[fill]
            let markerPos = pos + Int64(fill) - 1
            pos = markerPos + 2
            switch marker {
            case 0x00:
                layout.note("\(label): stray 0xFF00 at \(markerPos)", structural: true)
                return
            case 0x01, 0xD0...0xD8:
                continue  // TEM, RSTn and a repeated SOI carry no length.
            case 0xD9:
                layout.note("\(label): EOI before SOS", structural: false)
                return
            default:
                break
            }
            guard let lengthBytes = reader.bytes(at: pos, count: 2), pos + 2 <= end else {
                layout.note("\(label): truncated segment header at \(markerPos)", structural: true)
                return
            }
            let length = Int64(ByteView(lengthBytes).u16(0) ?? 0)
            guard length >= 2 else {
                layout.note("\(label): segment length \(length) at \(markerPos)", structural: true)
                return
            }
            let dataStart = pos + 2
            var dataEnd = pos + length
            var truncated = false
            if dataEnd > end {
                layout.note("\(label): segment 0x\(hexByte(marker)) at \(markerPos) runs past the end", structural: true)
                dataEnd = end
                truncated = true
            }
            let data = ByteRange(offset: dataStart, length: dataEnd - dataStart)
            switch marker {
            case 0xE1: app1(data, label: label, layout: &layout)
            case 0xE2 where primary: app2(data, label: label, layout: &layout, secondary: &secondary)
            case 0xE2: opaqueUnlessICC(data, layout: &layout)
            case 0xED: app13(data, layout: &layout)
            case 0xFE:
                // A comment becomes an APP15 segment of zeros: decoders skip any APPn.
                layout.retaggedBlocks.append(
                    RetaggedBlock(tag: ByteRange(offset: markerPos + 1, length: 1), replacement: [0xEF], data: data))
            case 0xE3...0xEC, 0xEF: layout.opaqueBlocks.append(data)
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                if primary, layout.pixelWidth == nil, let sof = reader.view(ByteRange(offset: dataStart, length: min(data.length, 5))),
                    let height = sof.u16(1), let width = sof.u16(3), width > 0
                {
                    layout.pixelWidth = Int(width)
                    layout.pixelHeight = height > 0 ? Int(height) : nil
                }
            case 0xDA:
                if primary { layout.imageDataStart = dataEnd }
                return  // Entropy-coded data follows; metadata segments come before it.
            default:
                break
            }
            if truncated { return }
            pos = dataEnd
        }
    }

    /// APP1: EXIF, XMP or extended XMP.
    private func app1(_ data: ByteRange, label: String, layout: inout ContainerLayout) {
        let head = ByteView(reader.prefix(at: data.offset, count: Int(min(data.length, 256))))
        if head.matches(Self.exifSignature, at: 0), data.length >= 6 {
            // "Exif\0" plus one pad byte (normally 0, some writers put 0xFF).
            let block = ByteRange(offset: data.offset + 6, length: data.length - 6)
            if !(head.slice(6, 4).map(TIFFWalker.isHeader) ?? false) {
                layout.note("\(label): EXIF segment at \(data.offset) has no TIFF header", structural: false)
            }
            layout.exifBlocks.append(block)
        } else if head.matches(Self.xmpSignature, at: 0) {
            let skip = Int64(Self.xmpSignature.count)
            layout.xmpPackets.append(ByteRange(offset: data.offset + skip, length: data.length - skip))
        } else if head.matches(Self.extendedXMPSignature, at: 0) {
            // Namespace, 32-byte GUID, 4-byte full length, 4-byte chunk offset, then the chunk.
            let skip = Int64(Self.extendedXMPSignature.count + 40)
            if data.length >= skip {
                layout.xmpPackets.append(ByteRange(offset: data.offset + skip, length: data.length - skip))
            } else {
                layout.note("\(label): extended XMP segment at \(data.offset) too short", structural: false)
            }
        } else if head.matches(Self.flirSignature, at: 0), data.length >= 8, let number = head.u8(6), let total = head.u8(7) {
            // FLIR's header: signature, a version byte, this chunk's number, the last number.
            layout.flirChunks.append(
                FLIRChunk(number: Int(number), total: Int(total) + 1, data: ByteRange(offset: data.offset + 8, length: data.length - 8)))
        } else if let start = Self.xmpStart(in: head.bytes) {
            // A non-standard XMP header (e.g. "XMP\0..."): the XML still reaches readers.
            layout.note("\(label): XMP under a non-standard APP1 header at \(data.offset)", structural: false)
            layout.xmpPackets.append(ByteRange(offset: data.offset + Int64(start), length: data.length - Int64(start)))
        } else {
            layout.opaqueBlocks.append(data)
        }
    }

    /// APP13 `Photoshop 3.0\0`: image resource blocks follow the signature. (The older
    /// `Adobe_CM` APP13 holds no IPTC.)
    private func app13(_ data: ByteRange, layout: inout ContainerLayout) {
        let skip = Int64(Self.photoshopSignature.count)
        guard data.length >= skip, reader.bytes(at: data.offset, count: Int(skip)) == Self.photoshopSignature else {
            layout.opaqueBlocks.append(data)
            return
        }
        layout.photoshopResources.append(ByteRange(offset: data.offset + skip, length: data.length - skip))
    }

    /// Where an XMP packet or `x:xmpmeta` element starts in `bytes`, if it does.
    static func xmpStart(in bytes: [UInt8]) -> Int? {
        for marker in ["<?xpacket", "<x:xmpmeta"] {
            let needle = Array(marker.utf8)
            guard bytes.count >= needle.count else { continue }
            if let i = (0...(bytes.count - needle.count)).first(where: { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }) {
                return i
            }
        }
        return nil
    }

    /// An APP2 segment other than MPF: an ICC profile stays, anything else (FlashPix) is
    /// opaque to `--metadata private`.
    private func opaqueUnlessICC(_ data: ByteRange, layout: inout ContainerLayout) {
        let icc = Array("ICC_PROFILE\0".utf8)
        if reader.bytes(at: data.offset, count: icc.count) != icc { layout.opaqueBlocks.append(data) }
    }

    /// APP2 `MPF\0`: the MP index IFD lists the other images (offsets relative to the MPF TIFF header).
    private func app2(_ data: ByteRange, label: String, layout: inout ContainerLayout, secondary: inout [ByteRange]) {
        guard let head = reader.bytes(at: data.offset, count: 4), head == Self.mpfSignature else {
            opaqueUnlessICC(data, layout: &layout)
            return
        }
        let tiffStart = data.offset + 4
        let tiff = TIFFWalker.firstDirectoryOnly.walk(reader.source, block: ByteRange(offset: tiffStart, length: data.end - tiffStart))
        guard let order = tiff.byteOrder, let index = tiff.directory(.main(0)) else {
            layout.note("\(label): unreadable MPF index at \(data.offset)", structural: true)
            return
        }
        guard let mpEntry = index.entry(0xB002), mpEntry.count % 16 == 0,
            let table = TIFFValues(reader.source, order: order).bytes(mpEntry, maxBytes: 16 * Self.maxMPFImages)
        else {
            layout.note("\(label): MPF index without a readable MP entry table", structural: true)
            return
        }
        let view = ByteView(table)
        let bigEndian = order == .bigEndian
        for i in 0..<(table.count / 16) {
            guard let size = view.u32(i * 16 + 4, bigEndian: bigEndian), let offset = view.u32(i * 16 + 8, bigEndian: bigEndian)
            else { break }
            guard offset != 0 else { continue }  // The first image is this file's primary image.
            let absolute = tiffStart + Int64(offset)
            let length = Int64(size)
            if absolute + length > reader.size || length < 4 {
                layout.note("\(label): MPF image \(i) lies outside the file", structural: true)
                continue
            }
            secondary.append(ByteRange(offset: absolute, length: length))
        }
    }
}

/// Two hex digits, for problem messages.
func hexByte(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
}
