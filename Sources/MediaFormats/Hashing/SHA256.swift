/// A streaming SHA-256 (FIPS 180-4) in pure Swift, for content fingerprints.
///
/// Feed any number of byte chunks with `update`, then call `finalize` once. The hot loop
/// works on raw pointers and keeps its 64-word message schedule on the stack, so hashing
/// a large file allocates nothing per block.
public struct SHA256: Sendable {
    /// The digest length in bytes.
    public static let digestSize = 32
    /// The block length in bytes.
    public static let blockSize = 64

    private var h0: UInt32 = 0x6a09_e667
    private var h1: UInt32 = 0xbb67_ae85
    private var h2: UInt32 = 0x3c6e_f372
    private var h3: UInt32 = 0xa54f_f53a
    private var h4: UInt32 = 0x510e_527f
    private var h5: UInt32 = 0x9b05_688c
    private var h6: UInt32 = 0x1f83_d9ab
    private var h7: UInt32 = 0x5be0_cd19
    /// Bytes of an incomplete block carried between `update` calls (fewer than 64).
    private var pending: [UInt8]
    /// The message length so far, in bytes.
    private var length: UInt64 = 0

    /// A fresh hash over no bytes.
    public init() {
        pending = []
        pending.reserveCapacity(Self.blockSize)
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var offset = 0
        let count = bytes.count
        // Top up a partial block first.
        if !pending.isEmpty {
            let take = min(Self.blockSize - pending.count, count)
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base, count: take))
            offset = take
            if pending.count == Self.blockSize {
                // Swap the buffer out so that `compress` may mutate `self` while reading it.
                var block: [UInt8] = []
                swap(&block, &pending)
                block.withUnsafeBytes { compress(blocks: $0.baseAddress!, count: 1) }
                block.removeAll(keepingCapacity: true)
                swap(&block, &pending)
            }
        }
        let whole = (count - offset) / Self.blockSize
        if whole > 0 {
            compress(blocks: base + offset, count: whole)
            offset += whole * Self.blockSize
        }
        if offset < count {
            pending.append(contentsOf: UnsafeRawBufferPointer(start: base + offset, count: count - offset))
        }
    }

    /// Adds `bytes` to the message.
    public mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything added so far. The hash itself is not changed,
    /// so more bytes may still be added for a digest of a longer message.
    public func finalize() -> [UInt8] {
        var copy = self
        let bitLength = length &* 8
        var tail: [UInt8] = [0x80]
        let used = (pending.count + 1) % Self.blockSize
        let zeros = used <= 56 ? 56 - used : 120 - used
        tail.append(contentsOf: repeatElement(0, count: zeros))
        for shift in stride(from: 56, through: 0, by: -8) {
            tail.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift)))
        }
        // The padding goes through `update` too; the bit length above was taken before it.
        copy.update(tail)
        var digest: [UInt8] = []
        digest.reserveCapacity(Self.digestSize)
        for word in [copy.h0, copy.h1, copy.h2, copy.h3, copy.h4, copy.h5, copy.h6, copy.h7] {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// The SHA-256 of `bytes` in one call.
    public static func hash(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }

    /// Lowercase hex of `bytes`, two digits per byte.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Runs the compression function over `count` consecutive 64-byte blocks.
    private mutating func compress(blocks: UnsafeRawPointer, count: Int) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            let w = schedule.baseAddress!
            SHA256.roundConstants.withUnsafeBufferPointer { constants in
                let k = constants.baseAddress!
                var a0 = h0, b0 = h1, c0 = h2, d0 = h3, e0 = h4, f0 = h5, g0 = h6, hh0 = h7
                for blockIndex in 0..<count {
                    let block = blocks + blockIndex &* SHA256.blockSize
                    for t in 0..<16 {
                        w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t &* 4, as: UInt32.self))
                    }
                    for t in 16..<64 {
                        let x = w[t &- 15]
                        let y = w[t &- 2]
                        let s0 = x.rotatedRight(7) ^ x.rotatedRight(18) ^ (x >> 3)
                        let s1 = y.rotatedRight(17) ^ y.rotatedRight(19) ^ (y >> 10)
                        w[t] = w[t &- 16] &+ s0 &+ w[t &- 7] &+ s1
                    }
                    var a = a0, b = b0, c = c0, d = d0, e = e0, f = f0, g = g0, h = hh0
                    // Eight rounds per pass with the roles of the working variables rotated
                    // in the arguments, so no value is moved between rounds.
                    var t = 0
                    while t < 64 {
                        sha256Round(a, b, c, &d, e, f, g, &h, k[t] &+ w[t])
                        sha256Round(h, a, b, &c, d, e, f, &g, k[t &+ 1] &+ w[t &+ 1])
                        sha256Round(g, h, a, &b, c, d, e, &f, k[t &+ 2] &+ w[t &+ 2])
                        sha256Round(f, g, h, &a, b, c, d, &e, k[t &+ 3] &+ w[t &+ 3])
                        sha256Round(e, f, g, &h, a, b, c, &d, k[t &+ 4] &+ w[t &+ 4])
                        sha256Round(d, e, f, &g, h, a, b, &c, k[t &+ 5] &+ w[t &+ 5])
                        sha256Round(c, d, e, &f, g, h, a, &b, k[t &+ 6] &+ w[t &+ 6])
                        sha256Round(b, c, d, &e, f, g, h, &a, k[t &+ 7] &+ w[t &+ 7])
                        t &+= 8
                    }
                    a0 &+= a
                    b0 &+= b
                    c0 &+= c
                    d0 &+= d
                    e0 &+= e
                    f0 &+= f
                    g0 &+= g
                    hh0 &+= h
                }
                h0 = a0
                h1 = b0
                h2 = c0
                h3 = d0
                h4 = e0
                h5 = f0
                h6 = g0
                h7 = hh0
            }
        }
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}

/// One SHA-256 round: `d` and `h` receive the new values; the caller rotates the roles.
@inline(__always)
private func sha256Round(
    _ a: UInt32, _ b: UInt32, _ c: UInt32, _ d: inout UInt32, _ e: UInt32, _ f: UInt32, _ g: UInt32, _ h: inout UInt32,
    _ constantPlusWord: UInt32
) {
    let sum1 = e.rotatedRight(6) ^ e.rotatedRight(11) ^ e.rotatedRight(25)
    let choose = g ^ (e & (f ^ g))
    let t1 = h &+ sum1 &+ choose &+ constantPlusWord
    let sum0 = a.rotatedRight(2) ^ a.rotatedRight(13) ^ a.rotatedRight(22)
    let majority = (a & b) | (c & (a | b))
    d &+= t1
    h = t1 &+ sum0 &+ majority
}

extension UInt32 {
    /// The bits rotated right by `count` (0 < count < 32).
    @inline(__always)
    fileprivate func rotatedRight(_ count: UInt32) -> UInt32 {
        (self >> count) | (self << (32 &- count))
    }
}
