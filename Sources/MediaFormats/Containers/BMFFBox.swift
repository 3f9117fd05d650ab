/// One ISO-BMFF box (QuickTime atom): its type and where its payload lies.
struct BMFFBox {
    var type: UInt32
    /// Absolute offset of the box header.
    var start: Int64
    /// The bytes after the header (and after the 16-byte user type of a `uuid` box).
    var payload: ByteRange
    /// True when the box claimed more bytes than its parent has; `payload` is then clipped.
    var truncated: Bool

    var end: Int64 { payload.end }
    var name: String { fourCC(type) }
}

/// Lists the boxes inside a parent, checking every size against the parent's end.
struct BMFFBoxList {
    /// The most boxes read under one parent; real files have at most thousands.
    static let maxBoxes = 100_000

    /// The boxes in `[start, end)`. 32-bit and 64-bit sizes, size 0 (to the parent's end),
    /// `uuid` user types. A box smaller than its header ends the list with a structural
    /// problem; a box larger than its parent is returned clipped with `truncated` set, and
    /// ends the list: the caller decides whether that hides metadata. Fewer than 8 bytes
    /// left over (QuickTime's 32-bit zero terminator) are ignored.
    static func boxes(reader: SourceReader, from start: Int64, to end: Int64, context: String, layout: inout ContainerLayout) -> [BMFFBox] {
        var result: [BMFFBox] = []
        var pos = start
        while end - pos >= 8 {
            guard result.count < maxBoxes else {
                layout.note("\(context): more than \(maxBoxes) boxes", structural: true)
                break
            }
            guard let header = reader.bytes(at: pos, count: 8) else {
                layout.note("\(context): unreadable box header at \(pos)", structural: true)
                break
            }
            let view = ByteView(header)
            let size32 = view.u32(0) ?? 0
            let type = view.u32(4) ?? 0
            var headerLength: Int64 = 8
            var size = Int64(size32)
            if size32 == 1 {
                guard let large = reader.bytes(at: pos + 8, count: 8).flatMap({ ByteView($0).u64(0) }), end - pos >= 16 else {
                    layout.note("\(context): truncated 64-bit box size at \(pos)", structural: true)
                    break
                }
                headerLength = 16
                size = large > UInt64(Int64.max) ? Int64.max : Int64(large)
            } else if size32 == 0 {
                size = end - pos
            }
            if type == fourCCValue("uuid") { headerLength += 16 }
            guard size >= headerLength else {
                layout.note("\(context): box '\(fourCC(type))' at \(pos) has size \(size)", structural: true)
                break
            }
            let available = end - pos
            let truncated = size > available
            let boxEnd = truncated ? end : pos + size
            result.append(
                BMFFBox(
                    type: type, start: pos, payload: ByteRange(offset: pos + headerLength, length: max(0, boxEnd - pos - headerLength)),
                    truncated: truncated))
            if truncated { break }
            pos = boxEnd
        }
        return result
    }
}
