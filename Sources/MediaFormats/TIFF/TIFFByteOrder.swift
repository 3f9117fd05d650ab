/// The byte order a TIFF header declares: `II` (little-endian) or `MM` (big-endian).
public enum TIFFByteOrder: Hashable, Sendable, CaseIterable {
    case littleEndian
    case bigEndian

    /// Reads an unsigned 16-bit value at `index`, or nil when it does not fit in `bytes`.
    func uint16(_ bytes: [UInt8], at index: Int) -> UInt16? {
        guard index >= 0, index <= bytes.count - 2 else { return nil }
        let a = UInt16(bytes[index])
        let b = UInt16(bytes[index + 1])
        return self == .littleEndian ? a | b << 8 : a << 8 | b
    }

    /// Reads an unsigned 32-bit value at `index`, or nil when it does not fit in `bytes`.
    func uint32(_ bytes: [UInt8], at index: Int) -> UInt32? {
        guard index >= 0, index <= bytes.count - 4 else { return nil }
        let a = UInt32(bytes[index])
        let b = UInt32(bytes[index + 1])
        let c = UInt32(bytes[index + 2])
        let d = UInt32(bytes[index + 3])
        return self == .littleEndian ? a | b << 8 | c << 16 | d << 24 : a << 24 | b << 16 | c << 8 | d
    }

    /// The two bytes of `value` in this order.
    public func bytes(of value: UInt16) -> [UInt8] {
        let lo = UInt8(truncatingIfNeeded: value)
        let hi = UInt8(truncatingIfNeeded: value >> 8)
        return self == .littleEndian ? [lo, hi] : [hi, lo]
    }

    /// The four bytes of `value` in this order.
    public func bytes(of value: UInt32) -> [UInt8] {
        let le: [UInt8] = [
            UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24),
        ]
        return self == .littleEndian ? le : le.reversed()
    }

    /// Writes `value` in this order at `index` of `buffer` (which must hold it).
    func put(_ value: UInt16, into buffer: UnsafeMutableRawBufferPointer, at index: Int) {
        let lo = UInt8(truncatingIfNeeded: value)
        let hi = UInt8(truncatingIfNeeded: value >> 8)
        (buffer[index], buffer[index + 1]) = self == .littleEndian ? (lo, hi) : (hi, lo)
    }

    /// Writes `value` in this order at `index` of `buffer` (which must hold it).
    func put(_ value: UInt32, into buffer: UnsafeMutableRawBufferPointer, at index: Int) {
        for i in 0..<4 {
            let shift = UInt32(8 * (self == .littleEndian ? i : 3 - i))
            buffer[index + i] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}
