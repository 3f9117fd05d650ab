/// The secret key of the tables that find an asset by id (`AssetPositions` and the
/// picker's index, which shares the views' table): SipHash-1-3 of the id under this key.
///
/// Asset ids are derived from file contents, so anyone who can put files into a library
/// could choose contents whose ids pile up on one slot of a table hashed in a known way.
/// Swift's `Hasher` prevents that with a seed drawn per process, which also makes a table
/// useless to any later process. A table kept on disk (`LibraryTables`) keeps its own
/// random key beside it, readable by the owner only, so a mount can use it as it is.
public struct IDHashKey: Sendable, Equatable {
    let k0: UInt64
    let k1: UInt64

    init(k0: UInt64, k1: UInt64) {
        self.k0 = k0
        self.k1 = k1
    }

    /// A fresh key from the system's random source.
    static func random() -> IDHashKey {
        var generator = SystemRandomNumberGenerator()
        return IDHashKey(k0: generator.next(), k1: generator.next())
    }

    /// The hash of `id`.
    @inline(__always)
    func hash(_ id: AssetID) -> Int { Int(truncatingIfNeeded: hash(id.number)) }

    /// SipHash-1-3 of the eight little-endian bytes of `word`.
    @inline(__always)
    func hash(_ word: UInt64) -> UInt64 {
        var v0 = k0 ^ 0x736f_6d65_7073_6575
        var v1 = k1 ^ 0x646f_7261_6e64_6f6d
        var v2 = k0 ^ 0x6c79_6765_6e65_7261
        var v3 = k1 ^ 0x7465_6462_7974_6573
        @inline(__always) func round() {
            v0 &+= v1
            v1 = v1 << 13 | v1 >> 51
            v1 ^= v0
            v0 = v0 << 32 | v0 >> 32
            v2 &+= v3
            v3 = v3 << 16 | v3 >> 48
            v3 ^= v2
            v0 &+= v3
            v3 = v3 << 21 | v3 >> 43
            v3 ^= v0
            v2 &+= v1
            v1 = v1 << 17 | v1 >> 47
            v1 ^= v2
            v2 = v2 << 32 | v2 >> 32
        }
        let m = UInt64(littleEndian: word)
        v3 ^= m
        round()
        v0 ^= m
        let last: UInt64 = 8 << 56
        v3 ^= last
        round()
        v0 ^= last
        v2 ^= 0xff
        round()
        round()
        round()
        return v0 ^ v1 ^ v2 ^ v3
    }
}
