import Testing

@testable import MediaFormats

@Suite struct TIFFWalkerTests {
    static let orders: [TIFFByteOrder] = [.littleEndian, .bigEndian]

    @Test(arguments: orders)
    func walksStandardFixture(order: TIFFByteOrder) {
        let source = MemoryByteSource(TIFFFixture.standard(order).embedded(after: 10))
        let layout = TIFFWalker().walk(source, block: ByteRange(offset: 10, length: 216))
        #expect(layout.byteOrder == order)
        #expect(layout.problems.isEmpty)
        #expect(layout.directories.map(\.kind) == [.main(0), .exif, .gps])
        #expect(layout.directories.map(\.offset) == [18, 48, 70])
        let gps = try! #require(layout.gpsDirectories.first)
        #expect(gps.entries.map(\.tag) == [0, 1, 2, 3, 4, 6])
        #expect(gps.byteRange == ByteRange(offset: 70, length: 78))
        #expect(gps.entries[0].value == ByteRange(offset: 70 + 2 + 8, length: 4))
        #expect(!gps.entries[0].isOutOfLine)
        #expect(gps.entries[2].value == ByteRange(offset: 170, length: 24))
        #expect(gps.entries[2].isOutOfLine)
        #expect(gps.entries[4].value == ByteRange(offset: 194, length: 24))
        #expect(gps.entries[5].value == ByteRange(offset: 218, length: 8))
        #expect(gps.entries[2].entryOffset == 70 + 2 + 24)
        #expect(layout.directories[1].entries[0].value == ByteRange(offset: 150, length: 20))
    }

    @Test(arguments: orders)
    func loopsEndAndAreReported(order: TIFFByteOrder) {
        var f = TIFFFixture(order: order, length: 64)
        // IFD0 points to itself as next IFD and as its EXIF IFD.
        f.ifd(8, [(0x8769, 4, 1, 8)], next: 8)
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 64))
        #expect(layout.directories.count == 1)
        #expect(layout.problems == [.directoryLoop(kind: .exif, offset: 8), .directoryLoop(kind: .main(1), offset: 8)])
        #expect(!layout.problems.contains { $0.mayHideLocation })
    }

    @Test(arguments: orders)
    func gpsPointerIntoAnotherDirectoryMayHideLocation(order: TIFFByteOrder) {
        var f = TIFFFixture(order: order, length: 64)
        // IFD0 is also its own GPS IFD: a reader would take its tag 2 as GPSLatitude.
        f.ifd(8, [(0x0002, 5, 3, 40), (0x8825, 4, 1, 8)])
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 64))
        #expect(layout.problems == [.gpsDirectoryShared(offset: 8)])
        #expect(layout.problems.allSatisfy { $0.mayHideLocation })
        // Two GPSInfo pointers to one GPS IFD are only a loop.
        var g = TIFFFixture(order: order, length: 64)
        g.ifd(8, [(0x8825, 4, 1, 40), (0x8825, 4, 1, 40)])
        g.ifd(40, [(1, 2, 2, 0)])
        let twice = TIFFWalker().walk(MemoryByteSource(g.bytes), block: ByteRange(offset: 0, length: 64))
        #expect(twice.problems == [.directoryLoop(kind: .gps, offset: 40)])
        #expect(twice.gpsDirectories.count == 1)
    }

    @Test(arguments: orders)
    func emptyPointersAndMissingNextOffsetsHideNothing(order: TIFFByteOrder) {
        // A GPSInfo pointer with count 0 (exiftool: "Empty GPSInfo data"), and IFD0's entries
        // ending exactly at the block's end, without room for the next-IFD offset.
        var f = TIFFFixture(order: order, length: 8 + 2 + 24)
        f.u16(8, 2)
        f.u16(10, 0x8825)
        f.u16(12, 4)
        f.u32(14, 0)
        f.u32(18, 8)
        f.u16(22, 0x0112)
        f.u16(24, 3)
        f.u32(26, 1)
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 34))
        #expect(layout.problems == [.nextOffsetOutsideBlock(kind: .main(0), offset: 8), .emptyPointer(tag: 0x8825, entryOffset: 10)])
        #expect(!layout.problems.contains { $0.mayHideLocation })
        #expect(layout.directories.map(\.byteRange) == [ByteRange(offset: 8, length: 26)])
        #expect(layout.directories.first?.nextIFD == nil)
    }

    @Test(arguments: orders)
    func entryCountLargerThanBlockIsTruncation(order: TIFFByteOrder) {
        var f = TIFFFixture(order: order, length: 64)
        f.u16(8, 0xFFFF)
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 64))
        #expect(layout.directories.isEmpty)
        #expect(layout.problems == [.directoryTruncated(kind: .main(0), offset: 8, declaredCount: 0xFFFF)])
        #expect(layout.problems.allSatisfy { $0.mayHideLocation })
    }

    @Test(arguments: orders)
    func overflowingValueCountsStayInsideTheBlock(order: TIFFByteOrder) {
        var f = TIFFFixture(order: order, length: 64)
        f.ifd(8, [(0x8825, 4, 1, 30)])
        // GPSLatitude with count 0xFFFFFFFF RATIONALs (32 GiB) and an offset near 4 GiB.
        f.ifd(30, [(2, 5, 0xFFFF_FFFF, 40), (4, 5, 3, 0xFFFF_FFF0)])
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 64))
        let gps = try! #require(layout.gpsDirectories.first)
        #expect(gps.entries.map(\.value) == [nil, nil])
        #expect(
            layout.problems == [
                .valueOutsideBlock(kind: .gps, tag: 2, entryOffset: 32), .valueOutsideBlock(kind: .gps, tag: 4, entryOffset: 44),
            ])
    }

    @Test(arguments: orders)
    func truncatedBlockAndBadHeaders(order: TIFFByteOrder) {
        let full = TIFFFixture.standard(order).bytes
        // Cut inside the GPS IFD (which runs 60..<138).
        let cut = TIFFWalker().walk(MemoryByteSource(Array(full[0..<100])), block: ByteRange(offset: 0, length: 100))
        #expect(cut.directories.map(\.kind) == [.main(0), .exif])
        #expect(cut.problems.contains(.directoryTruncated(kind: .gps, offset: 60, declaredCount: 6)))
        #expect(cut.problems.contains(.valueOutsideBlock(kind: .exif, tag: 0x9003, entryOffset: 40)))

        var notTIFF = full
        notTIFF[2] = 43
        #expect(TIFFWalker().walk(MemoryByteSource(notTIFF), block: ByteRange(offset: 0, length: 216)).problems == [.notTIFF])
        #expect(TIFFWalker().walk(MemoryByteSource(Array(full[0..<7])), block: ByteRange(offset: 0, length: 7)).problems == [.notTIFF])
        // A block that claims more than the source holds.
        #expect(TIFFWalker().walk(MemoryByteSource(full), block: ByteRange(offset: 100, length: 200)).problems == [.notTIFF])
        #expect(TIFFWalker().walk(MemoryByteSource(full), block: ByteRange(offset: -1, length: 20)).problems == [.notTIFF])
    }

    @Test(arguments: orders)
    func pointerOfWrongTypeIsNotFollowed(order: TIFFByteOrder) {
        var f = TIFFFixture(order: order, length: 64)
        f.ifd(8, [(0x8769, 2, 4, 0), (0x8825, 2, 4, 0)])
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 64))
        #expect(layout.directories.count == 1)
        #expect(
            layout.problems == [
                .pointerWrongType(tag: 0x8769, type: 2, entryOffset: 10), .pointerWrongType(tag: 0x8825, type: 2, entryOffset: 22),
            ])
        #expect(layout.problems.map(\.mayHideLocation) == [false, true])
    }

    @Test func subIFDsAndChainsAreFollowedWithinLimits() {
        var f = TIFFFixture(order: .littleEndian, length: 200)
        // SubIFDs: 2 LONG offsets stored at 60 → IFDs at 80 and 100; IFD0 next → IFD at 120.
        f.ifd(8, [(0x014A, 4, 2, 60)], next: 120)
        f.u32(60, 80)
        f.u32(64, 100)
        f.ifd(80, [(0x0100, 3, 1, 5)])
        f.ifd(100, [(0x8825, 4, 1, 140)])
        f.ifd(120, [(0x0101, 3, 1, 7)])
        f.ifd(140, [(1, 2, 2, 0)])
        let layout = TIFFWalker().walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 200))
        #expect(layout.problems.isEmpty)
        #expect(layout.directories.map(\.kind) == [.main(0), .sub, .sub, .main(1), .gps])

        let limited = TIFFWalker(limits: .init(maxDirectories: 2)).walk(MemoryByteSource(f.bytes), block: ByteRange(offset: 0, length: 200))
        #expect(limited.directories.count == 2)
        #expect(limited.problems.contains(.tooManyDirectories))
    }

    @Test func everyPrefixOfTheFixtureIsWalkedWithoutTrapping() {
        for order in Self.orders {
            let full = TIFFFixture.standard(order).bytes
            for length in 0...full.count {
                let layout = TIFFWalker().walk(MemoryByteSource(full), block: ByteRange(offset: 0, length: Int64(length)))
                for directory in layout.directories {
                    #expect(directory.byteRange.end <= Int64(length))
                }
                #expect(length < 216 || layout.problems.isEmpty)
            }
        }
    }
}
