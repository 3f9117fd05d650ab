import MediaFormats
import Testing

/// The typed value accessor over what `TIFFWalker` found: text, integers of the integer
/// types, and nothing for a wrong type, a cap or a count that lies about the block.
@Suite struct TIFFValuesTests {
    /// IFD0 with Make (ASCII, out of line), Orientation (SHORT, inline), StripOffsets (two
    /// LONGs, out of line) and StripByteCounts claiming 2^28 LONGs at the block's end.
    static func block(_ order: TIFFByteOrder) -> [UInt8] {
        func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ field: [UInt8]) -> [UInt8] {
            order.bytes(of: tag) + order.bytes(of: type) + order.bytes(of: count) + field
        }
        let header: [UInt8] =
            (order == .bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]) + order.bytes(of: UInt16(42)) + order.bytes(of: UInt32(8))
        var bytes = header + order.bytes(of: UInt16(4))
        bytes += entry(EXIFTag.make, 2, 6, order.bytes(of: UInt32(62)))
        bytes += entry(EXIFTag.orientation, 3, 1, order.bytes(of: UInt16(6)) + [0, 0])
        bytes += entry(0x0111, 4, 2, order.bytes(of: UInt32(68)))
        bytes += entry(0x0117, 4, 1 << 28, order.bytes(of: UInt32(72)))
        bytes += order.bytes(of: UInt32(0))
        bytes += Array("Canon\0".utf8) + order.bytes(of: UInt32(100)) + order.bytes(of: UInt32(200))
        return bytes
    }

    @Test(arguments: [TIFFByteOrder.littleEndian, .bigEndian])
    func valuesByType(order: TIFFByteOrder) throws {
        let source = MemoryByteSource(Self.block(order))
        let layout = TIFFWalker().walk(source, block: ByteRange(offset: 0, length: source.size))
        let ifd0 = try #require(layout.directory(.main(0)))
        let values = TIFFValues(source, order: try #require(layout.byteOrder))
        #expect(values.text(ifd0.entry(EXIFTag.make)) == "Canon")
        #expect(values.integer(ifd0.entry(EXIFTag.orientation)) == 6)
        #expect(values.integers(ifd0.entry(0x0111)) == [100, 200])
        #expect(values.integer(ifd0.entry(0x0111)) == 100)
        // A cap below the count, a wrong type, a missing tag: nothing.
        #expect(values.integers(ifd0.entry(0x0111), limit: 1) == nil)
        #expect(values.text(ifd0.entry(EXIFTag.orientation)) == nil)
        #expect(values.integer(ifd0.entry(EXIFTag.model)) == nil)
        // 2^28 LONGs do not fit in the block: the walker gives the entry no value, so no read happens.
        let lying = try #require(ifd0.entry(0x0117))
        #expect(lying.value == nil)
        #expect(values.bytes(lying) == nil && values.integers(lying) == nil && values.integer(lying) == nil)
    }
}
