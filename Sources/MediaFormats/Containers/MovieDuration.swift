/// The length of a QuickTime/MP4 movie from its `moov/mvhd` box, read with a handful of
/// small reads wherever the box sits in the file: the video placeholder's stamp and the
/// picker tile's "0:42".
public enum MovieDuration {
    /// Seconds, or nil when no readable `mvhd` is found.
    public static func seconds(of source: some ByteSource) -> Double? {
        guard let moov = box("moov", in: source, from: 0, to: source.size),
            let mvhd = box("mvhd", in: source, from: moov.offset, to: moov.end),
            let body = try? source.read(at: mvhd.offset, count: 32), body.count >= 20
        else { return nil }
        let version = body[0]
        let timescale: UInt64
        let duration: UInt64
        if version == 1 {
            guard body.count >= 32 else { return nil }
            timescale = bigEndian(body, 20, 4)
            duration = bigEndian(body, 24, 8)
        } else {
            timescale = bigEndian(body, 12, 4)
            duration = bigEndian(body, 16, 4)
        }
        guard timescale > 0, duration != UInt64.max, duration != UInt64(UInt32.max) else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// The payload range of the first box of `type` among the boxes between `start` and `end`.
    private static func box(_ type: String, in source: some ByteSource, from start: Int64, to end: Int64) -> ByteRange? {
        let wanted = Array(type.utf8)
        var at = start
        // A hostile file cannot make this loop long: each step moves forward, at most 4,096 of them.
        for _ in 0..<4096 where at + 8 <= end {
            guard let head = try? source.read(at: at, count: 16), head.count >= 8 else { return nil }
            var size = Int64(bigEndian(head, 0, 4))
            var header: Int64 = 8
            if size == 1 {
                guard head.count >= 16 else { return nil }
                size = Int64(clamping: bigEndian(head, 8, 8))
                header = 16
            } else if size == 0 {
                size = end - at
            }
            guard size >= header, size <= end - at else { return nil }
            if Array(head[4..<8]) == wanted { return ByteRange(offset: at + header, length: size - header) }
            at += size
        }
        return nil
    }

    private static func bigEndian(_ bytes: [UInt8], _ index: Int, _ width: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in 0..<width { value = value << 8 | UInt64(bytes[index + k]) }
        return value
    }
}
