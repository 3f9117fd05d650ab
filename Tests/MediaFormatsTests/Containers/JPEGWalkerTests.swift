import Testing

@testable import MediaFormats

@Suite struct JPEGWalkerTests {
    /// SOI, APP0, APP1 Exif, APP1 XMP, APP1 extended XMP, SOF0 200x100, SOS.
    static func simpleJPEG(tiff: [UInt8] = Fixture.tiff(bigEndian: true)) -> (
        bytes: [UInt8], exif: ByteRange, xmp: ByteRange, extended: ByteRange
    ) {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += Fixture.jpegSegment(0xE0, Fixture.ascii("JFIF\0") + [1, 1, 0, 0, 1, 0, 1, 0, 0])
        let exifStart = bytes.count + 4 + 6
        bytes += Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + tiff)
        let xml = Fixture.ascii("<x:xmpmeta/>")
        bytes += Fixture.jpegSegment(0xE1, Fixture.ascii("http://ns.adobe.com/xap/1.0/\0") + xml)
        let xmpStart = bytes.count - xml.count
        let chunk = Fixture.ascii("<rdf:RDF/>")
        bytes += Fixture.jpegSegment(
            0xE1,
            Fixture.ascii("http://ns.adobe.com/xmp/extension/\0") + [UInt8](repeating: 0x41, count: 32) + Fixture.be32(chunk.count)
                + Fixture.be32(0) + chunk)
        let extStart = bytes.count - chunk.count
        bytes += [0xFF, 0xFF, 0xFF]  // Fill bytes before a marker are legal.
        bytes += Fixture.sof(width: 200, height: 100)
        bytes += Fixture.sosAndData
        return (bytes, range(exifStart, tiff.count), range(xmpStart, xml.count), range(extStart, chunk.count))
    }

    @Test func findsExifXmpExtendedXmpAndDimensions() {
        let f = Self.simpleJPEG()
        let layout = ContainerWalker.layout(of: MemoryByteSource(f.bytes), format: .jpeg)
        #expect(layout.exifBlocks == [f.exif])
        #expect(layout.xmpPackets == [f.xmp, f.extended])
        #expect(layout.pixelWidth == 200)
        #expect(layout.pixelHeight == 100)
        #expect(layout.isComplete)
        #expect(layout.problems.isEmpty)
        #expect(f.bytes[Int(f.exif.offset)] == 0x4D)
    }

    @Test func xmpUnderANonStandardHeaderIsStillAPacket() {
        let xml = Fixture.ascii("<x:xmpmeta>exif:GPSLatitude</x:xmpmeta>")
        let bytes: [UInt8] =
            [0xFF, 0xD8] + Fixture.jpegSegment(0xE1, Fixture.ascii("XMP\0://ns.adobe.com/xap/1.0/\0") + xml) + Fixture.sosAndData
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(layout.xmpPackets == [range(bytes.count - Fixture.sosAndData.count - xml.count, xml.count)])
        #expect(layout.isComplete)
    }

    @Test func truncatedExifSegmentIsIncomplete() {
        let f = Self.simpleJPEG()
        let cut = Array(f.bytes.prefix(Int(f.exif.offset) + 10))
        let layout = ContainerWalker.layout(of: MemoryByteSource(cut), format: .jpeg)
        #expect(!layout.isComplete)
        #expect(layout.exifBlocks == [range(Int(f.exif.offset), 10)])
    }

    @Test func junkInsteadOfMarkerIsIncomplete() {
        var bytes: [UInt8] = [0xFF, 0xD8, 0x00, 0x11]
        bytes += Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + Fixture.tiff())
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(!layout.isComplete)
        #expect(layout.exifBlocks.isEmpty)
    }

    @Test func metadataOnlyJPEGWithoutSOSIsCompleteWithAProblem() {
        let bytes: [UInt8] = [0xFF, 0xD8] + Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + Fixture.tiff())
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(layout.isComplete)
        #expect(layout.exifBlocks == [range(12, Fixture.tiff().count)])
        #expect(layout.problems.count == 1)
    }

    /// Found by the mutation test: a lone 0xFF as the last byte used to loop forever.
    @Test(
        .timeLimit(.minutes(1)),
        arguments: [[0xFF, 0xD8, 0xFF], [0xFF, 0xD8, 0xFF, 0xFF], [0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 200)])
    func endsInsideFillBytes(bytes: [UInt8]) {
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(!layout.isComplete)
    }

    @Test func zeroLengthSegmentIsIncomplete() {
        let bytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x00, 0xFF, 0xD9]
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(!layout.isComplete)
    }

    /// A primary JPEG with an APP2 MPF index pointing at a second JPEG appended after EOI.
    @Test(arguments: [false, true])
    func followsMPFSecondaryImages(bigEndian: Bool) throws {
        let u16 = bigEndian ? Fixture.be16 : Fixture.le16
        let u32 = bigEndian ? Fixture.be32 : Fixture.le32
        let secondTIFF = Fixture.tiff(bigEndian: !bigEndian, make: "Second")
        var second: [UInt8] = [0xFF, 0xD8]
        second += Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + secondTIFF)
        let secondXML = Fixture.ascii("<x/>")
        second += Fixture.jpegSegment(0xE1, Fixture.ascii("http://ns.adobe.com/xap/1.0/\0") + secondXML)
        second += Fixture.sof(width: 20, height: 10) + Fixture.sosAndData

        // MPF: header, IFD with MPFVersion and MPEntry (2 entries of 16 bytes at offset 50).
        func mpf(secondOffset: Int) -> [UInt8] {
            let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
            var t = header + u32(8) + u16(2)
            t += u16(0xB000) + u16(7) + u32(4) + Fixture.ascii("0100")
            t += u16(0xB002) + u16(7) + u32(32) + u32(8 + 2 + 24 + 4)
            t += u32(0)
            t += u32(0x030000) + u32(999) + u32(0) + [0, 0, 0, 0]
            t += u32(0x010001) + u32(second.count) + u32(secondOffset) + [0, 0, 0, 0]
            return Fixture.ascii("MPF\0") + t
        }
        let exifTIFF = Fixture.tiff()
        var primary: [UInt8] = [0xFF, 0xD8] + Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + exifTIFF)
        let mpfTIFFStart = primary.count + 4 + 4
        let segmentLength = 4 + mpf(secondOffset: 0).count
        let provisional = primary.count + segmentLength + Fixture.sof(width: 200, height: 100).count + Fixture.sosAndData.count
        primary += Fixture.jpegSegment(0xE2, mpf(secondOffset: provisional - mpfTIFFStart))
        primary += Fixture.sof(width: 200, height: 100) + Fixture.sosAndData
        try #require(primary.count == provisional)
        let bytes = primary + second

        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        let secondExif = provisional + 2 + 4 + 6
        #expect(layout.exifBlocks == [range(12, exifTIFF.count), range(secondExif, secondTIFF.count)])
        #expect(
            layout.xmpPackets == [
                range(bytes.count - Fixture.sosAndData.count - Fixture.sof(width: 20, height: 10).count - secondXML.count, secondXML.count)
            ])
        #expect(layout.pixelWidth == 200)
        #expect(layout.isComplete)
        #expect(layout.problems.isEmpty)
    }

    @Test func mpfEntryOutsideTheFileIsIncomplete() {
        var t: [UInt8] = [0x49, 0x49, 0x2A, 0x00] + Fixture.le32(8) + Fixture.le16(1)
        t += Fixture.le16(0xB002) + Fixture.le16(7) + Fixture.le32(16) + Fixture.le32(26)
        t += Fixture.le32(0)
        t += Fixture.le32(0) + Fixture.le32(0x7FFF_FFFF) + Fixture.le32(0x7FFF_0000) + [0, 0, 0, 0]
        let bytes: [UInt8] = [0xFF, 0xD8] + Fixture.jpegSegment(0xE2, Fixture.ascii("MPF\0") + t) + Fixture.sosAndData
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .jpeg)
        #expect(!layout.isComplete)
    }

    /// IFD0 with an XMLPacket (0x02BC) entry whose value follows the IFD.
    @Test(arguments: [false, true])
    func xmpTagInsideATIFFBlockIsAPacket(bigEndian: Bool) {
        let u16 = bigEndian ? Fixture.be16 : Fixture.le16
        let u32 = bigEndian ? Fixture.be32 : Fixture.le32
        let xml = Fixture.ascii("<x:xmpmeta>exif:GPSLatitude</x:xmpmeta>")
        let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        let tiff = header + u32(8) + u16(1) + u16(0x02BC) + u16(1) + u32(xml.count) + u32(8 + 2 + 12 + 4) + u32(0) + xml
        let layout = ContainerWalker.layout(of: MemoryByteSource(tiff), format: .tiff)
        #expect(layout.xmpPackets == [range(26, xml.count)])
        let jpeg: [UInt8] = [0xFF, 0xD8] + Fixture.jpegSegment(0xE1, Fixture.ascii("Exif\0\0") + tiff) + Fixture.sosAndData
        #expect(ContainerWalker.layout(of: MemoryByteSource(jpeg), format: .jpeg).xmpPackets == [range(12 + 26, xml.count)])
    }

    @Test func tiffIsOneBlockOverTheWholeFile() {
        let bytes = Fixture.tiff(dng: true)
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .dng)
        #expect(layout.exifBlocks == [range(0, bytes.count)])
        #expect(layout.isComplete)
    }
}
