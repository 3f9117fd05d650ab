/// The stable identity of one asset: 12 lowercase hex digits taken from the file's
/// fingerprint (a SHA-256 over its size and its first and last 64 KiB), so renaming or
/// moving a file keeps its id and different content gets a different one (see
/// `AssetFingerprint`); a further identical copy gets an id derived from it.
///
/// Held as the 48-bit number the digits spell (8 bytes, compared and hashed as one word:
/// a million of them are kept and looked up); `rawValue` spells it again without
/// allocating (12 ASCII bytes fit a small string). Ordering by the number is ordering by
/// the digits.
public struct AssetID: Hashable, Comparable, Sendable, CustomStringConvertible {
    private let bits: UInt64

    /// The number of hex digits in an id.
    public static let length = 12

    /// The hex digits, e.g. `3f9a1c0d2b7e`.
    public var rawValue: String {
        String(unsafeUninitializedCapacity: Self.length) { out in
            for i in 0..<Self.length {
                let nibble = UInt8(truncatingIfNeeded: bits >> UInt64(4 * (Self.length - 1 - i))) & 0xF
                out[i] = nibble < 10 ? 48 + nibble : 87 + nibble
            }
            return Self.length
        }
    }

    /// Accepts exactly `length` hex digits (any case); anything else is not an id.
    public init?(_ text: some StringProtocol) {
        var utf8 = Array(text.utf8)
        guard let id = utf8.withUnsafeMutableBufferPointer({ AssetID(utf8: UnsafeBufferPointer($0)) }) else { return nil }
        self = id
    }

    /// Accepts exactly `length` ASCII hex digits given as UTF-8 bytes (any case). The same
    /// rule as `init?(_:)` without the generic string walk: the catalog reads a million ids
    /// at a time straight from SQLite's buffers.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == Self.length else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            let nibble: UInt8
            switch byte {
            case 48...57: nibble = byte - 48
            case 97...102: nibble = byte - 87
            case 65...70: nibble = byte - 55
            default: return nil
            }
            value = value << 4 | UInt64(nibble)
        }
        bits = value
    }

    public var description: String { rawValue }

    /// The 48-bit number the digits spell (what a library file's inode number carries).
    public var number: UInt64 { bits }

    /// The id whose digits spell `number`; nil past 48 bits.
    public init?(number: UInt64) {
        guard number >> 48 == 0 else { return nil }
        bits = number
    }

    /// The first four digits: the suffix that tells two same-named assets apart.
    public var shortSuffix: String { String(rawValue.prefix(4)) }

    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.bits < rhs.bits }
}
