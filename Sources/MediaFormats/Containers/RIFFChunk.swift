/// One chunk of a RIFF file (AVI, WebP): its four-character type and its data. Chunk data
/// is padded to an even length, so the next chunk starts after a pad byte when the length is odd.
struct RIFFChunk {
    let type: String
    let data: ByteRange

    /// Where the chunk after this one starts.
    var next: Int64 { data.end + (data.length & 1) }
}

extension SourceReader {
    /// The RIFF chunk whose 8-byte header (type, little-endian length) is at `pos`, in a
    /// parent that ends at `end`. Returns nil, noting why as a structural problem of
    /// `format` ("AVI", "WebP"), when the walker's limits say stop (`withinLimits` false), the
    /// header cannot be read, or the data runs past the parent: the walk ends there.
    func riffChunk(
        at pos: Int64, parentEnd end: Int64, withinLimits: Bool, format: String, layout: inout ContainerLayout
    ) -> RIFFChunk? {
        guard withinLimits, let header = bytes(at: pos, count: 8) else {
            layout.note("\(format): unreadable chunk at \(pos)", structural: true)
            return nil
        }
        let view = ByteView(header)
        let type = fourCC(view.u32(0) ?? 0)
        let data = ByteRange(offset: pos + 8, length: Int64(view.u32(4, bigEndian: false) ?? 0))
        guard data.end <= end else {
            layout.note("\(format): chunk \(type) at \(pos) runs past its parent", structural: true)
            return nil
        }
        return RIFFChunk(type: type, data: data)
    }
}
