import Foundation

/// MD5 (RFC 1321), used only because the thumbnail standard names files by the MD5 of the
/// source URI; not for anything that needs collision resistance.
enum MD5 {
    private static let shifts: [UInt32] = [
        7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
        4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21,
    ]
    private static let constants: [UInt32] = (0..<64).map { i in
        UInt32(truncatingIfNeeded: Int64(abs(sin(Double(i + 1))) * 4_294_967_296.0))
    }

    /// The 32 lower-case hex digits of the digest of `bytes`.
    static func hex(_ bytes: [UInt8]) -> String {
        var message = bytes
        let bitLength = UInt64(bytes.count) &* 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for i in 0..<8 { message.append(UInt8(truncatingIfNeeded: bitLength >> (8 * UInt64(i)))) }
        var a0: UInt32 = 0x6745_2301
        var b0: UInt32 = 0xEFCD_AB89
        var c0: UInt32 = 0x98BA_DCFE
        var d0: UInt32 = 0x1032_5476
        var words = [UInt32](repeating: 0, count: 16)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let p = chunk + i * 4
                words[i] = UInt32(message[p]) | UInt32(message[p + 1]) << 8 | UInt32(message[p + 2]) << 16 | UInt32(message[p + 3]) << 24
            }
            var a = a0
            var b = b0
            var c = c0
            var d = d0
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16: (f, g) = ((b & c) | (~b & d), i)
                case 16..<32: (f, g) = ((d & b) | (~d & c), (5 * i + 1) % 16)
                case 32..<48: (f, g) = (b ^ c ^ d, (3 * i + 5) % 16)
                default: (f, g) = (c ^ (b | ~d), (7 * i) % 16)
                }
                f = f &+ a &+ constants[i] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
            }
            a0 = a0 &+ a
            b0 = b0 &+ b
            c0 = c0 &+ c
            d0 = d0 &+ d
        }
        let digits = Array("0123456789abcdef")
        var text = ""
        for word in [a0, b0, c0, d0] {
            for i in 0..<4 {
                let byte = UInt8(truncatingIfNeeded: word >> (8 * UInt32(i)))
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0xF)])
            }
        }
        return text
    }
}
