import MediaFormats

/// An append-only byte buffer that writes integers in a chosen byte order, with
/// in-place patching for offsets that are known only later.
struct ByteWriter {
    let order: TIFFByteOrder
    var bytes: [UInt8] = []

    init(order: TIFFByteOrder) { self.order = order }

    var count: Int { bytes.count }

    mutating func append(_ data: [UInt8]) { bytes.append(contentsOf: data) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        switch order {
        case .littleEndian: bytes.append(contentsOf: [UInt8(value & 0xFF), UInt8(value >> 8)])
        case .bigEndian: bytes.append(contentsOf: [UInt8(value >> 8), UInt8(value & 0xFF)])
        }
    }

    mutating func u32(_ value: UInt32) {
        switch order {
        case .littleEndian:
            bytes.append(contentsOf: [UInt8(value & 0xFF), UInt8((value >> 8) & 0xFF), UInt8((value >> 16) & 0xFF), UInt8(value >> 24)])
        case .bigEndian:
            bytes.append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
        }
    }

    /// Overwrites 4 bytes at `position` with `value`.
    mutating func patch32(at position: Int, _ value: UInt32) {
        var scratch = ByteWriter(order: order)
        scratch.u32(value)
        bytes.replaceSubrange(position..<position + 4, with: scratch.bytes)
    }

    /// Pads with a zero byte to an even length: TIFF wants IFDs and values on word
    /// boundaries.
    mutating func alignToWord() {
        if bytes.count % 2 == 1 { bytes.append(0) }
    }
}
