import MediaFormats
import PhotoCore
import PhotoHashing
import SystemKit

/// A `ByteSource` over one open file that reads its start and its end once, up front, and
/// answers the container walkers and the redaction planner from those bytes where it can
/// (most reads: metadata sits near the start of a photo, and at either end of a video), and
/// from the file otherwise. The same two reads give the asset's fingerprint, so analysing
/// a camera JPEG costs two `pread` calls and about 192 KiB, whatever its size.
final class SampledFileSource: ByteSource {
    /// Bytes read from the start: the fingerprint's head sample and what follows it, so
    /// that the metadata segments of a JPEG (EXIF with its thumbnail, XMP, ICC) are in memory.
    static let headLength = 128 << 10

    let file: FileByteSource
    let size: Int64
    /// The file's first bytes (up to `headLength`).
    private let head: [UInt8]
    /// The fingerprint's tail range and its bytes.
    private let tailStart: Int64
    private let tail: [UInt8]
    /// The asset's fingerprint, from the two samples.
    let fingerprint: AssetFingerprint

    init(_ file: FileByteSource) throws(ByteSourceError) {
        let size = file.size
        let ranges = AssetFingerprint.sampleRanges(size: size)
        let head = try file.read(at: 0, count: Self.headLength)
        // The tail may overlap what the head read holds: read only what is missing.
        let tail: [UInt8]
        if ranges.tail.isEmpty {
            tail = []
        } else if ranges.tail.upperBound <= Int64(head.count) {
            tail = Array(head[Int(ranges.tail.lowerBound)..<Int(ranges.tail.upperBound)])
        } else {
            let missingFrom = max(ranges.tail.lowerBound, Int64(head.count))
            let fetched = try file.read(at: missingFrom, count: Int(ranges.tail.upperBound - missingFrom))
            tail = Array(head[min(head.count, Int(ranges.tail.lowerBound))...]) + fetched
        }
        guard Int64(head.count) == min(size, Int64(Self.headLength)), Int64(tail.count) == ranges.tail.count else {
            // The file shrank while it was read: its analysis would not describe it.
            throw .io(errno: Errno.stale.rawValue)
        }
        let headSample = Int(ranges.head.upperBound)
        fingerprint = head.withUnsafeBytes { headBytes in
            tail.withUnsafeBytes { tailBytes in
                AssetFingerprint(size: size, head: UnsafeRawBufferPointer(rebasing: headBytes[0..<headSample]), tail: tailBytes)
            }
        }
        self.file = file
        self.size = size
        self.head = head
        self.tail = tail
        tailStart = ranges.tail.lowerBound
    }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        let end = offset + Int64(min(Int64(count), size - offset))
        if end <= Int64(head.count) { return Array(head[Int(offset)..<Int(end)]) }
        if offset >= tailStart, end <= tailStart + Int64(tail.count) {
            return Array(tail[Int(offset - tailStart)..<Int(end - tailStart)])
        }
        return try file.read(at: offset, count: count)
    }
}
