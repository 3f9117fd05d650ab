/// Walks one sample of a GoPro GPMF timed-metadata track (`gpmd`): a sequence of KLV items,
/// each a 4-byte key, a 1-byte type, a 1-byte structure size and a 16-bit big-endian repeat
/// count, then `size * repeat` bytes of data padded to 32 bits. Type 0 items (`DEVC`,
/// `STRM`) nest further items. The walker lists the leaf items of every container, grouped
/// by the container that holds them (a stream), so that a planner can act on a whole stream.
///
/// It fails closed: an item that runs past its container, nesting deeper than `maxDepth`,
/// a zero key followed by anything but zeros, or leftover bytes that are not zero padding
/// make the whole sample `uncertain`. A key that begins `GPS`, and GoPro Karma's `GLPI` and
/// `GPRI`, mark a stream as located (exiftool reads `GPS5` as GPSLatitude/Longitude/Altitude,
/// `GPSU` as GPSDateTime, `GPSF` as GPSMeasureMode, `GPSP` as GPSHPositioningError; newer
/// cameras write `GPS9`). A location key is a leaf even with type 0: its bytes go whole.
struct GPMFWalker {
    static let maxDepth = 8

    /// One leaf item; offsets are into the sample.
    struct Item: Hashable {
        var key: UInt32
        /// Offset of the key (the item's header).
        var offset: Int
        var type: UInt8
        var structSize: Int
        var repeatCount: Int
        /// The data bytes (`structSize * repeatCount`, without padding).
        var data: Range<Int>

        var name: String { fourCC(key) }
        var isLocation: Bool { GPMFWalker.isLocationKey(key) }
    }

    /// The leaf items of one container (usually a `STRM`), in order.
    struct Stream: Hashable {
        var items: [Item]
        var isLocated: Bool { items.contains(where: \.isLocation) }
    }

    enum Walk: Hashable {
        case streams([Stream])
        case uncertain(String)
    }

    /// Whether `key` holds or belongs to a position: any `GPS?` key, `GLPI`, `GPRI`.
    static func isLocationKey(_ key: UInt32) -> Bool {
        key >> 8 == fourCCValue("GPS ") >> 8 || key == fourCCValue("GLPI") || key == fourCCValue("GPRI")
    }

    /// The streams of one sample.
    static func walk(_ bytes: [UInt8]) -> Walk {
        var streams: [Stream] = []
        if let problem = walk(ByteView(bytes), from: 0, to: bytes.count, depth: 0, into: &streams) {
            return .uncertain(problem)
        }
        return .streams(streams)
    }

    private static func walk(_ view: ByteView, from start: Int, to end: Int, depth: Int, into streams: inout [Stream]) -> String? {
        guard depth <= maxDepth else { return "GPMF nested deeper than \(maxDepth) at \(start)" }
        var leaves: [Item] = []
        var position = start
        while end - position >= 8 {
            guard let key = view.u32(position), let type = view.u8(position + 4), let size = view.u8(position + 5),
                let repeatCount = view.u16(position + 6)
            else { return "GPMF item header unreadable at \(position)" }
            if key == 0 {
                // exiftool and GoPro's parser stop at a null key: what follows must be padding.
                guard view.bytes[position..<end].allSatisfy({ $0 == 0 }) else { return "GPMF data after a null key at \(position)" }
                position = end
                break
            }
            let length = Int(size) * Int(repeatCount)
            let dataStart = position + 8
            guard length <= end - dataStart else { return "GPMF item '\(fourCC(key))' at \(position) runs past its container" }
            if type == 0 && !isLocationKey(key) {
                if let problem = walk(view, from: dataStart, to: dataStart + length, depth: depth + 1, into: &streams) { return problem }
            } else {
                leaves.append(
                    Item(
                        key: key, offset: position, type: type, structSize: Int(size), repeatCount: Int(repeatCount),
                        data: dataStart..<(dataStart + length)))
            }
            // Items are padded to 32 bits; the padding of the last item may be cut off.
            position = min(end, dataStart + (length + 3) & ~3)
        }
        guard view.bytes[position..<end].allSatisfy({ $0 == 0 }) else { return "GPMF leftover bytes at \(position)" }
        if !leaves.isEmpty { streams.append(Stream(items: leaves)) }
        return nil
    }
}
