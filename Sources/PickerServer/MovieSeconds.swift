import Glibc
import PhotoCore

/// A QuickTime/MP4 movie's length from its `moov/mvhd` box, for the tile's "0:42": a few
/// small reads wherever `moov` sits, of a file that still has the catalog's size.
enum MovieSeconds {
    static func of(_ asset: Asset, path: String) -> Double? {
        guard asset.metadata.format.kind == .video else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) == asset.size else { return nil }
        let read = { (offset: Int64, count: Int) -> [UInt8] in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, count, off_t(offset)) }
            return got > 0 ? Array(bytes[0..<got]) : []
        }
        guard let moov = box("moov", read: read, from: 0, to: asset.size),
            let mvhd = box("mvhd", read: read, from: moov.lowerBound, to: moov.upperBound)
        else { return nil }
        let body = read(mvhd.lowerBound, 32)
        guard body.count >= 20 else { return nil }
        let wide = body[0] == 1
        guard !wide || body.count >= 32 else { return nil }
        let timescale = number(body, wide ? 20 : 12, 4)
        let duration = number(body, wide ? 24 : 16, wide ? 8 : 4)
        guard timescale > 0, duration != UInt64.max, duration != UInt64(UInt32.max) else { return nil }
        return Double(duration) / Double(timescale)
    }

    /// The payload of the first box named `name` among the sibling boxes in `start..<end`.
    private static func box(_ name: String, read: (Int64, Int) -> [UInt8], from start: Int64, to end: Int64) -> Range<Int64>? {
        let wanted = Array(name.utf8)
        var at = start
        // A hostile file cannot make this loop long: each step moves forward, at most 4,096 of them.
        for _ in 0..<4096 where at + 8 <= end {
            let head = read(at, 16)
            guard head.count >= 8 else { return nil }
            var size = Int64(clamping: number(head, 0, 4))
            var header: Int64 = 8
            if size == 1 {
                guard head.count >= 16 else { return nil }
                size = Int64(clamping: number(head, 8, 8))
                header = 16
            } else if size == 0 {
                size = end - at
            }
            guard size >= header, size <= end - at else { return nil }
            if Array(head[4..<8]) == wanted { return (at + header)..<(at + size) }
            at += size
        }
        return nil
    }

    private static func number(_ bytes: [UInt8], _ index: Int, _ width: Int) -> UInt64 {
        bytes[index..<(index + width)].reduce(0) { $0 << 8 | UInt64($1) }
    }
}
