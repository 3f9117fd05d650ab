/// Walks a GIF's blocks for its dimensions and XMP: the application extension
/// `XMP DataXMP` holds the packet as raw bytes followed by a 258-byte "magic trailer"
/// (0x01, 0xFF down to 0x00, terminator) that makes sub-block readers skip it.
/// GIF has no EXIF. For `--metadata private`, comment and plain-text extensions and
/// application extensions other than looping, XMP and ICC get a label no reader interprets
/// (0xFD: decoders and exiftool skip unknown extensions) and their sub-block data zeroed.
struct GIFWalker {
    static let xmpApplication: [UInt8] = Array("XMP DataXMP".utf8)
    static let maxBlocks = 1_000_000

    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .gif)
        guard let screen = reader.bytes(at: 0, count: 13) else {
            layout.note("GIF: truncated header", structural: true)
            return layout
        }
        let view = ByteView(screen)
        layout.pixelWidth = view.u16(6, bigEndian: false).map(Int.init)
        layout.pixelHeight = view.u16(8, bigEndian: false).map(Int.init)
        var pos: Int64 = 13
        let packed = screen[10]
        if packed & 0x80 != 0 { pos += 3 << (Int64(packed & 7) + 1) }
        for _ in 0..<Self.maxBlocks {
            guard let introducer = reader.bytes(at: pos, count: 1)?.first else {
                layout.note("GIF: ends without a trailer at \(pos)", structural: true)
                return layout
            }
            switch introducer {
            case 0x3B:
                return layout
            case 0x21:
                guard let label = reader.bytes(at: pos + 1, count: 1)?.first else {
                    layout.note("GIF: truncated extension at \(pos)", structural: true)
                    return layout
                }
                let dataStart = pos + 2
                guard let end = skipSubBlocks(from: dataStart) else {
                    layout.note("GIF: extension at \(pos) runs past the end", structural: true)
                    return layout
                }
                let application =
                    label == 0xFF ? reader.bytes(at: dataStart, count: 12).flatMap { $0[0] == 11 ? Array($0[1...]) : nil } : nil
                if let application, application == Self.xmpApplication {
                    xmp(from: dataStart + 12, to: end, layout: &layout)
                }
                let kept =
                    label == 0xF9
                    || application.map { IdentityTags.gifApplicationsKept.contains(String(decoding: $0, as: UTF8.self)) } ?? false
                if !kept { privateExtension(label: pos + 1, from: dataStart, to: end, layout: &layout) }
                pos = end
            case 0x2C:
                guard let descriptor = reader.bytes(at: pos, count: 10) else {
                    layout.note("GIF: truncated image descriptor at \(pos)", structural: true)
                    return layout
                }
                var dataStart = pos + 10
                if descriptor[9] & 0x80 != 0 { dataStart += 3 << (Int64(descriptor[9] & 7) + 1) }
                guard let end = skipSubBlocks(from: dataStart + 1) else {  // After the LZW code size.
                    layout.note("GIF: image data at \(pos) runs past the end", structural: true)
                    return layout
                }
                pos = end
            default:
                layout.note("GIF: unknown block 0x\(hexByte(introducer)) at \(pos)", structural: true)
                return layout
            }
        }
        layout.note("GIF: too many blocks", structural: true)
        return layout
    }

    /// The offset after the zero-length terminator of the sub-blocks starting at `start`.
    private func skipSubBlocks(from start: Int64) -> Int64? {
        var pos = start
        var window: [UInt8] = []
        var windowStart: Int64 = 0
        while true {
            if pos < windowStart || pos >= windowStart + Int64(window.count) {
                window = reader.prefix(at: pos, count: 65_536)
                windowStart = pos
                if window.isEmpty { return nil }
            }
            let size = Int64(window[Int(pos - windowStart)])
            pos += 1 + size
            if size == 0 { return pos }
        }
    }

    /// Marks an extension for `--metadata private`: the label becomes 0xFD and every
    /// sub-block's data zeros (the length bytes stay, so the block structure still reads).
    private func privateExtension(label: Int64, from start: Int64, to end: Int64, layout: inout ContainerLayout) {
        var pos = start
        var window: [UInt8] = []
        var windowStart: Int64 = 0
        while pos < end {
            if pos < windowStart || pos >= windowStart + Int64(window.count) {
                window = reader.prefix(at: pos, count: 65_536)
                windowStart = pos
                if window.isEmpty { return }
            }
            let size = Int64(window[Int(pos - windowStart)])
            if size == 0 { return }
            layout.retaggedBlocks.append(
                RetaggedBlock(tag: ByteRange(offset: label, length: 1), replacement: [0xFD], data: ByteRange(offset: pos + 1, length: size))
            )
            pos += 1 + size
        }
    }

    /// The XMP packet: from after the application identifier to the magic trailer.
    private func xmp(from start: Int64, to end: Int64, layout: inout ContainerLayout) {
        let trailerLength: Int64 = 258
        guard end - start >= trailerLength, let trailer = reader.bytes(at: end - trailerLength, count: 3), trailer == [0x01, 0xFF, 0xFE]
        else {
            layout.note("GIF: XMP extension at \(start) without the magic trailer", structural: true)
            return
        }
        layout.xmpPackets.append(ByteRange(offset: start, length: end - trailerLength - start))
    }
}
