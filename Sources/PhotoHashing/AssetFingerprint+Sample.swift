import PhotoCore

/// How an asset's fingerprint is computed from a file: SHA-256 over a fixed label, the size
/// as 8 little-endian bytes, the first `sampleLength` bytes and the last `sampleLength`
/// bytes after those (so a file of up to twice the sample is hashed whole, each byte once).
extension AssetFingerprint {
    /// Bytes sampled at each end of the file.
    public static let sampleLength = 64 << 10
    /// Names the scheme inside the hash, so a fingerprint can never equal a plain SHA-256.
    static let label: [UInt8] = Array("photofs sampled fingerprint 1\0".utf8)

    /// The two ranges of a file of `size` bytes that enter its fingerprint: the head, then
    /// the tail (empty for a file no longer than one sample).
    public static func sampleRanges(size: Int64) -> (head: Range<Int64>, tail: Range<Int64>) {
        let length = Int64(sampleLength)
        let head = 0..<min(size, length)
        let tail = max(head.upperBound, size - length)..<max(size, head.upperBound)
        return (head, tail)
    }

    /// The fingerprint of a file of `size` bytes from its sampled ranges' bytes.
    public init(size: Int64, head: UnsafeRawBufferPointer, tail: UnsafeRawBufferPointer) {
        var hasher = SHA256()
        hasher.update(Self.label)
        hasher.update((0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: size) >> (8 * $0)) })
        hasher.update(head)
        hasher.update(tail)
        // A SHA-256 digest is always 32 bytes.
        self.init(digest: hasher.finalize())!
    }

    /// The fingerprint of a whole file held in memory (tests, small files).
    public init(of bytes: [UInt8]) {
        let ranges = Self.sampleRanges(size: Int64(bytes.count))
        self = bytes.withUnsafeBytes { all in
            AssetFingerprint(
                size: Int64(bytes.count),
                head: UnsafeRawBufferPointer(rebasing: all[Int(ranges.head.lowerBound)..<Int(ranges.head.upperBound)]),
                tail: UnsafeRawBufferPointer(rebasing: all[Int(ranges.tail.lowerBound)..<Int(ranges.tail.upperBound)]))
        }
    }
}
