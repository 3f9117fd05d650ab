/// Walks an AVI file's RIFF chunks (`RIFF....AVI ` and the `AVIX` extensions that follow).
/// Headers (`hdrl`), stream data (`movi`, not read), indexes, padding (`JUNK`) and the
/// `INFO` text list carry no location; `_PMX` is XMP, blanked in place like any packet.
/// `--metadata private` turns `INFO` texts other than the creation date into `JUNK`.
/// Any other chunk (a camera maker's `strd` or `hydt` data, an unknown list) could hold a
/// location photofs cannot read: the file is withheld from views that hide location.
struct RIFFWalker {
    static let maxChunks = 100_000
    /// Chunks and lists known to hold no location.
    static let plainChunks: Set<String> = [
        "avih", "strh", "strf", "strn", "vprp", "indx", "dmlh", "idx1", "JUNK", "JUNQ", "idit", "IDIT", "ISMP", "segm",
    ]
    static let plainLists: Set<String> = ["hdrl", "strl", "odml", "movi", "INFO", "rec "]

    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .avi)
        var pos: Int64 = 0
        var chunks = 0
        // One RIFF form after another (AVI 2.0 appends `AVIX` forms).
        while pos + 12 <= reader.size {
            guard let header = reader.bytes(at: pos, count: 12), ByteView(header).matches("RIFF", at: 0) else {
                layout.note("AVI: data after the RIFF forms at \(pos)", structural: true)
                return layout
            }
            let size = Int64(ByteView(header).u32(4, bigEndian: false) ?? 0)
            var end = pos + 8 + size
            if end > reader.size {
                layout.note("AVI: RIFF form at \(pos) runs past the end of the file", structural: true)
                end = reader.size
            }
            walk(from: pos + 12, to: end, chunks: &chunks, depth: 0, layout: &layout)
            if pos == 0, layout.pixelWidth == nil { readMainHeader(layout: &layout) }
            pos = end + (size % 2)
        }
        return layout
    }

    private func walk(from start: Int64, to end: Int64, chunks: inout Int, depth: Int, layout: inout ContainerLayout) {
        var pos = start
        while pos + 8 <= end {
            chunks += 1
            guard
                let chunk = reader.riffChunk(
                    at: pos, parentEnd: end, withinLimits: chunks <= Self.maxChunks && depth < 8, format: "AVI", layout: &layout)
            else { return }
            let type = chunk.type
            let data = chunk.data
            if type == "LIST", data.length >= 4,
                let listType = reader.bytes(at: data.offset, count: 4).map({ String(decoding: $0, as: UTF8.self) })
            {
                if listType == "movi" {
                    // Stream data: frames and audio, no metadata.
                } else if Self.plainLists.contains(listType) {
                    walk(from: data.offset + 4, to: data.end, chunks: &chunks, depth: depth + 1, layout: &layout)
                } else {
                    layout.unreadableMetadata = "an AVI '\(listType)' list photofs cannot read"
                }
            } else if type == "_PMX" {
                layout.xmpPackets.append(data)
            } else if depth > 0, isInfoText(type) {
                // INFO text (title, artist, software, dates): all but the date become JUNK
                // under `--metadata private`.
                if !IdentityTags.aviInfoKept.contains(type) {
                    layout.retaggedBlocks.append(
                        RetaggedBlock(tag: ByteRange(offset: pos, length: 4), replacement: Array("JUNK".utf8), data: data))
                }
            } else if !Self.plainChunks.contains(type) && !isStreamChunk(type) {
                layout.unreadableMetadata = "an AVI '\(type)' chunk photofs cannot read"
            }
            pos = chunk.next
        }
    }

    /// `INFO` subchunks are four capitals starting with `I` (`INAM`, `ISFT`, `ICRD`...).
    private func isInfoText(_ type: String) -> Bool {
        type.hasPrefix("I") && type.utf8.allSatisfy { (0x41...0x5A).contains($0) }
    }

    /// Stream chunks outside `movi` (`00dc`, `01wb` ...): two digits and two letters.
    private func isStreamChunk(_ type: String) -> Bool {
        let bytes = Array(type.utf8)
        return bytes.count == 4 && (0x30...0x39).contains(bytes[0]) && (0x30...0x39).contains(bytes[1])
    }

    /// The `avih` main header's width and height (offsets 32 and 36 of its data).
    private func readMainHeader(layout: inout ContainerLayout) {
        guard let head = reader.bytes(at: 12, count: 12), ByteView(head).matches("LIST", at: 0), ByteView(head).matches("hdrl", at: 8),
            let avih = reader.bytes(at: 24, count: 8 + 40), ByteView(avih).matches("avih", at: 0)
        else { return }
        let view = ByteView(avih)
        if let width = view.u32(8 + 32, bigEndian: false), let height = view.u32(8 + 36, bigEndian: false), width > 0, height > 0,
            width < 1 << 16, height < 1 << 16
        {
            layout.pixelWidth = Int(width)
            layout.pixelHeight = Int(height)
        }
    }
}

/// A BMP's dimensions from its info header. BMP carries no metadata beyond an optional
/// ICC profile: nothing to redact.
struct BMPWalker {
    let reader: SourceReader

    func layout() -> ContainerLayout {
        var layout = ContainerLayout(format: .bmp)
        guard let head = reader.bytes(at: 0, count: 26) else {
            layout.note("BMP: header truncated", structural: false)
            return layout
        }
        let view = ByteView(head)
        let infoSize = view.u32(14, bigEndian: false) ?? 0
        if infoSize == 12 {
            layout.pixelWidth = view.u16(18, bigEndian: false).map(Int.init)
            layout.pixelHeight = view.u16(20, bigEndian: false).map(Int.init)
        } else if let width = view.u32(18, bigEndian: false), let height = view.u32(22, bigEndian: false) {
            // Height is negative for top-down bitmaps.
            let w = Int(Int32(bitPattern: width).magnitude)
            let h = Int(Int32(bitPattern: height).magnitude)
            if w > 0, h > 0 {
                layout.pixelWidth = w
                layout.pixelHeight = h
            }
        }
        return layout
    }
}
