import MediaFormats

/// The content fingerprint of one asset: the SHA-256 of the file's full content. The
/// asset id is its first 12 hex digits.
///
/// Why the full content, and not a name, an inode, a partial hash or the metadata:
/// - Stable under rename and move: nothing about where the file lives enters the hash,
///   so a renamed or moved file keeps its id, and therefore its grants.
/// - Different content, different id: any changed byte (an edit, a re-encode, a metadata
///   rewrite by another tool) gives an unrelated digest. A hash over only the first and last
///   megabyte, or over size plus EXIF, would miss an edit in the middle and let two
///   different photos share an id (and one's grant reveal the other).
/// - Byte-identical duplicates share content, so they share the id: they are one asset
///   seen at several paths. A grant to one is a grant to bytes the app may see anyway.
/// - 48 bits of id make an accidental collision in a library of a million files about
///   one in 500 (birthday bound n²/2⁴⁹); the catalog keeps the full 64-digit fingerprint and
///   can tell such a pair apart.
///
/// The cost: every byte of every new or changed file is read once at index time (a video
/// library means gigabytes). Incremental indexing skips files whose size, mtime and inode
/// are unchanged, so the cost is paid once per file content, not on every index run;
/// hashing runs at several hundred MB/s, so the disk is usually the limit.
public struct AssetFingerprint: Hashable, Sendable, CustomStringConvertible {
    /// The 32 bytes of SHA-256.
    public let digest: [UInt8]

    /// Wraps a SHA-256 digest; nil unless it is exactly 32 bytes.
    public init?(digest: [UInt8]) {
        guard digest.count == SHA256.digestSize else { return nil }
        self.digest = digest
    }

    /// The fingerprint of `bytes` held in memory (tests, small files).
    public init(of bytes: [UInt8]) {
        digest = SHA256.hash(bytes)
    }

    /// The fingerprint of everything fed to `hasher`.
    public init(finishing hasher: SHA256) {
        digest = hasher.finalize()
    }

    /// Parses 64 hex digits (any case); nil for anything else.
    public init?(hex text: some StringProtocol) {
        let utf8 = Array(text.utf8)
        guard utf8.count == SHA256.digestSize * 2 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(SHA256.digestSize)
        var index = 0
        while index < utf8.count {
            guard let high = hexValue(utf8[index]), let low = hexValue(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        digest = bytes
    }

    /// 64 lowercase hex digits.
    public var hex: String { SHA256.hex(digest) }

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
