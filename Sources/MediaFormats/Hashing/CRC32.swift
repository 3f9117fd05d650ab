/// CRC-32 as PNG and zlib define it (ISO 3309): reflected polynomial 0xEDB88320, initial
/// value and final xor 0xFFFFFFFF. The one checksum of PNG chunks: redaction rewrites a
/// patched chunk's, thumbnails write their text chunks'.
public struct CRC32: Sendable {
    /// The 256-entry lookup table, built once (immutable).
    private static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 {
            c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1
        }
        return c
    }

    private var state: UInt32 = 0xFFFF_FFFF

    public init() {}

    /// Feeds more bytes.
    public mutating func update(_ bytes: some Sequence<UInt8>) {
        Self.table.withUnsafeBufferPointer { table in
            for byte in bytes {
                state = table[Int((state ^ UInt32(byte)) & 0xFF)] ^ (state >> 8)
            }
        }
    }

    /// The checksum of everything fed so far.
    public var value: UInt32 { state ^ 0xFFFF_FFFF }

    /// The checksum of `bytes`.
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }
}
