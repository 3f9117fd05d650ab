import MediaFormats
import Testing

@testable import PhotoSamples

/// The builder's layout, read back with a minimal reader written for this test: header,
/// sorted entries, even offsets, out-of-line values where the offsets say.
@Suite struct TIFFBuilderTests {
    /// Reads integers of a block in its byte order.
    struct Reader {
        let bytes: [UInt8]
        var little: Bool { bytes[0] == 0x49 }

        func u16(_ at: Int) -> Int {
            little ? Int(bytes[at]) | Int(bytes[at + 1]) << 8 : Int(bytes[at]) << 8 | Int(bytes[at + 1])
        }

        func u32(_ at: Int) -> Int {
            little ? u16(at) | u16(at + 2) << 16 : u16(at) << 16 | u16(at + 2)
        }

        /// (tag, type, count, value-or-offset field position) of each entry of the IFD at `offset`.
        func entries(at offset: Int) -> [(tag: Int, type: Int, count: Int, field: Int)] {
            (0..<u16(offset)).map { i in
                let e = offset + 2 + 12 * i
                return (u16(e), u16(e + 2), u32(e + 4), e + 8)
            }
        }
    }

    static let sample = ExifFields(
        make: "Canon", model: "Canon EOS 40D", orientation: 6, software: "Firmware 1.1.1",
        taken: CaptureDate(year: 2024, month: 6, day: 15, hour: 8, minute: 0, second: 1, utcOffsetMinutes: 120),
        pixelWidth: 160, pixelHeight: 120, lensModel: "EF-S17-85mm f/4-5.6 IS USM",
        location: GeoLocation(latitude: -33.856800, longitude: 151.215300, altitude: -12.5))

    @Test(arguments: TIFFByteOrder.allCases)
    func layoutIsSortedAlignedAndPointsAtTheValues(order: TIFFByteOrder) throws {
        let block = ExifBuilder(byteOrder: order).build(Self.sample)
        let reader = Reader(bytes: block.bytes)
        #expect(Array(block.bytes[0..<2]) == (order == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D]))
        #expect(reader.u16(2) == 42)
        #expect(reader.u32(4) == 8)

        for (path, offset) in block.directoryOffsets {
            #expect(offset % 2 == 0, "IFD \(path) at odd offset \(offset)")
            let tags = reader.entries(at: offset).map(\.tag)
            #expect(tags == tags.sorted(), "IFD \(path) not in tag order")
        }
        let ifd0 = reader.entries(at: 8)
        let exifPointer = try #require(ifd0.first { $0.tag == 0x8769 })
        let gpsPointer = try #require(ifd0.first { $0.tag == 0x8825 })
        #expect(reader.u32(exifPointer.field) == block.directoryOffsets["0/8769"])
        #expect(reader.u32(gpsPointer.field) == block.directoryOffsets["0/8825"])
        #expect(reader.u32(8 + 2 + 12 * ifd0.count) == 0, "IFD0 has no next IFD")

        // Make (6 bytes with NUL) is out of line, on an even offset, and says "Canon".
        let make = try #require(ifd0.first { $0.tag == 0x010F })
        #expect(make.type == 2 && make.count == 6)
        let makeOffset = reader.u32(make.field)
        #expect(makeOffset % 2 == 0)
        #expect(Array(block.bytes[makeOffset..<makeOffset + 6]) == Array("Canon\0".utf8))
        #expect(block.valueOffsets["0:010f"] == makeOffset)
        // Orientation (one SHORT) is inline.
        let orientation = try #require(ifd0.first { $0.tag == 0x0112 })
        #expect(reader.u16(orientation.field) == 6)
        #expect(block.valueOffsets["0:0112"] == orientation.field)

        // GPS latitude: three RATIONALs out of line: 33° 51' 24.4800".
        let gps = reader.entries(at: try #require(block.directoryOffsets["0/8825"]))
        let latitude = try #require(gps.first { $0.tag == 2 })
        #expect(latitude.type == 5 && latitude.count == 3)
        let at = reader.u32(latitude.field)
        #expect(at == block.valueOffsets["0/8825:0002"])
        #expect((0..<6).map { reader.u32(at + 4 * $0) } == [33, 1, 51, 1, 244_800, 10_000])
        let reference = try #require(gps.first { $0.tag == 1 })
        #expect(block.bytes[reference.field] == UInt8(ascii: "S"))
        let altitudeReference = try #require(gps.first { $0.tag == 5 })
        #expect(altitudeReference.type == 1 && block.bytes[altitudeReference.field] == 1)
    }

    @Test func everyOutOfLineValueLiesInsideTheBlockAndNoTwoOverlap() {
        let block = ExifBuilder(byteOrder: .bigEndian).build(Self.sample)
        let reader = Reader(bytes: block.bytes)
        let sizes = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 10: 8]
        var ranges: [Range<Int>] = []
        for offset in block.directoryOffsets.values {
            ranges.append(offset..<offset + 2 + 12 * reader.u16(offset) + 4)
            for entry in reader.entries(at: offset) {
                let length = (sizes[entry.type] ?? 0) * entry.count
                if length > 4 { ranges.append(reader.u32(entry.field)..<reader.u32(entry.field) + length) }
            }
        }
        for range in ranges { #expect(range.upperBound <= block.bytes.count) }
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        for (a, b) in zip(sorted, sorted.dropFirst()) { #expect(a.upperBound <= b.lowerBound, "\(a) overlaps \(b)") }
    }

    @Test func rawEntriesAreWrittenVerbatimForHostileFixtures() {
        var ifd0 = TIFFBuilderDirectory()
        ifd0.add(0x0112, .rawOffset(type: 3, count: 0xFFFF_FFFF, offset: 0xDEAD_BEEF))
        ifd0.add(0x010F, .raw(type: 2, count: 99, bytes: Array("ab".utf8)))
        ifd0.add(0x010F, .ascii("second"))
        let block = TIFFBuilder(byteOrder: .littleEndian).build([
            ifd0, TIFFBuilderDirectory(entries: [TIFFBuilderEntry(0x0100, .long([7]))]),
        ])
        let reader = Reader(bytes: block.bytes)
        let entries = reader.entries(at: 8)
        #expect(entries.map(\.tag) == [0x010F, 0x010F, 0x0112], "duplicates kept in insertion order")
        #expect(entries[0].count == 99 && Array(block.bytes[entries[0].field..<entries[0].field + 2]) == Array("ab".utf8))
        #expect(entries[2].count == 0xFFFF_FFFF && reader.u32(entries[2].field) == 0xDEAD_BEEF)
        // IFD1 is linked from IFD0's next pointer.
        let next = reader.u32(8 + 2 + 12 * 3)
        #expect(next == block.directoryOffsets["1"])
        #expect(reader.entries(at: next).first?.tag == 0x0100)
    }

    @Test(arguments: [
        (0.0, [0, 0, 0]), (48.858370, [48, 51, 301_320]), (179.99999999, [180, 0, 0]), (179.9999999, [179, 59, 599_996]),
        (-9.133476, [9, 8, 5136]),
    ])
    func degreesSplitIntoExactRationals(value: Double, expected: [Int]) {
        let parts = ExifBuilder.degreesMinutesSeconds(value)
        let decoded = Double(parts[0].numerator) + Double(parts[1].numerator) / 60 + Double(parts[2].numerator) / 10_000 / 3600
        #expect(abs(decoded - abs(value)) < 1e-7)
        #expect(parts[2].numerator < 600_000, "seconds below 60")
        #expect(parts.map { Int($0.numerator) } == expected)
    }
}
