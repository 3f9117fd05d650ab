/// The content fingerprint of one asset: a SHA-256 over the file's size and its first and
/// last 64 KiB (computed by PhotoHashing, see `AssetFingerprint.sampleLength` there). The
/// asset id is its first 12 hex digits.
///
/// Why a sample and not every byte: reading a whole library to name its files costs more
/// than everything else an index does (a 12 MP JPEG is 5-10 MB, its metadata lives in its
/// first 64 KiB); with the sample an index reads about what the metadata needs. What it keeps:
/// - Stable under rename and move: nothing about where the file lives enters the hash,
///   so a renamed or moved file keeps its id, and therefore its grants.
/// - Different content, different id, for every edit real tools make: a metadata rewrite
///   changes the head, a re-encode changes the size or both ends. An edit confined to the
///   middle of a file that keeps its size keeps the fingerprint; the file is still read
///   again (its size, mtime, inode or ctime changed) and keeps its id, metadata and
///   redaction plans fresh: an edited photo stays the asset the app was granted, as in
///   Photos. `photofs index --verify` hashes every byte for those who want to know.
/// - Byte-identical copies share a fingerprint; the indexer gives each path its own id.
/// - 48 bits of id make an accidental collision in a library of a million files about
///   one in 500 (birthday bound n²/2⁴⁹); the catalog keeps the full 64-digit fingerprint and
///   can tell such a pair apart.
public struct AssetFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The length of a SHA-256 digest in bytes.
    public static let digestSize = 32

    /// The 32 bytes of SHA-256.
    public let digest: [UInt8]

    /// Wraps a SHA-256 digest; nil unless it is exactly 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == Self.digestSize else { return nil }
        self.digest = digest
    }

    /// Parses 64 hex digits (any case); nil for anything else.
    public init?(hex text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == Self.digestSize * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Self.digestSize)
        var index = 0
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        digest = bytes
    }

    /// 64 lowercase hex digits.
    public var hex: String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        return String(decoding: digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    /// The asset id: the first `AssetID.length` hex digits.
    public var assetID: AssetID {
        // 12 hex digits from a 64-digit lowercase hex string always form a valid id.
        AssetID(hex.prefix(AssetID.length))!
    }

    public var description: String { hex }
}

private func hexValue(_ digit: UInt8) -> UInt8? {
    switch digit {
    case 48...57: digit - 48
    case 97...102: digit - 87
    case 65...70: digit - 55
    default: nil
    }
}
