/// FNV-1a, 64 bits: a small hash that is the same on every machine and every run (unlike
/// Swift's `Hasher`). Used where a short stable name is needed and no adversary gains
/// from a collision: catalog file names and alternative ids for duplicate files.
struct StableHash {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x0000_0100_0000_01b3
        }
    }

    /// The value as 16 lowercase hex digits.
    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(16)
        for shift in stride(from: 60, through: 0, by: -4) {
            out.append(digits[Int((value >> UInt64(shift)) & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func hex(of bytes: some Sequence<UInt8>) -> String {
        var hash = StableHash()
        hash.combine(bytes)
        return hash.hex
    }
}
