/// The stable identity of one asset: 12 lowercase hex digits taken from the file's
/// fingerprint (a SHA-256 over its size and its first and last 64 KiB), so renaming or
/// moving a file keeps its id and different content gets a different one (see
/// `AssetFingerprint`); a further identical copy gets an id derived from it.
public struct AssetID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The hex digits, e.g. `3f9a1c0d2b7e`.
    public let rawValue: String

    /// The number of hex digits in an id.
    public static let length = 12

    /// Accepts exactly `length` hex digits (any case); anything else is not an id.
    public init?(_ text: some StringProtocol) {
        guard text.count == Self.length,
            text.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 102) || ($0 >= 65 && $0 <= 70) })
        else { return nil }
        rawValue = text.lowercased()
    }

    /// Accepts exactly `length` ASCII hex digits given as UTF-8 bytes (any case). The same
    /// rule as `init?(_:)` without the generic string walk: the catalog reads 100,000 ids
    /// at a time straight from SQLite's buffers.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == Self.length else { return nil }
        var valid = true
        let text = String(unsafeUninitializedCapacity: Self.length) { out in
            for (i, byte) in bytes.enumerated() {
                switch byte {
                case 48...57, 97...102: out[i] = byte
                case 65...70: out[i] = byte + 32
                default: valid = false
                }
            }
            return valid ? Self.length : 0
        }
        guard valid else { return nil }
        rawValue = text
    }

    public var description: String { rawValue }

    /// The first four digits: the suffix that tells two same-named assets apart.
    public var shortSuffix: String { String(rawValue.prefix(4)) }

    public static func < (lhs: AssetID, rhs: AssetID) -> Bool { lhs.rawValue < rhs.rawValue }
}
