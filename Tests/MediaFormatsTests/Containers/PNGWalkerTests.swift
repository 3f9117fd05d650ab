import Testing

@testable import MediaFormats

@Suite struct PNGWalkerTests {
    static let ihdr = Fixture.pngChunk("IHDR", Fixture.be32(640) + Fixture.be32(480) + [8, 2, 0, 0, 0])

    @Test func findsExifXmpAndDimensionsWithTheirChecksums() {
        let tiff = Fixture.tiff()
        let xml = Fixture.ascii("<x:xmpmeta/>")
        var bytes = Fixture.pngSignature + Self.ihdr
        let exifChunk = bytes.count
        bytes += Fixture.pngChunk("eXIf", tiff)
        let itxtChunk = bytes.count
        let itxtData = Fixture.ascii("XML:com.adobe.xmp\0") + [0, 0] + Fixture.ascii("en\0\0") + xml
        bytes += Fixture.pngChunk("iTXt", itxtData)
        bytes += Fixture.pngChunk("IDAT", [1, 2, 3]) + Fixture.pngChunk("IEND", [])
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(layout.exifBlocks == [range(exifChunk + 8, tiff.count)])
        #expect(layout.xmpPackets == [range(itxtChunk + 8 + itxtData.count - xml.count, xml.count)])
        #expect(
            layout.checksummedChunks == [
                ChecksummedChunk(covered: range(exifChunk + 4, tiff.count + 4), checksumOffset: Int64(exifChunk + 8 + tiff.count)),
                ChecksummedChunk(covered: range(itxtChunk + 4, itxtData.count + 4), checksumOffset: Int64(itxtChunk + 8 + itxtData.count)),
            ])
        #expect(layout.pixelWidth == 640 && layout.pixelHeight == 480)
        #expect(layout.isComplete && layout.problems.isEmpty)
    }

    @Test func compressedXmpIsUnpatchable() {
        let data = Fixture.ascii("XML:com.adobe.xmp\0") + [1, 0] + Fixture.ascii("\0\0") + [0x78, 0x9C, 0x03, 0x00]
        let bytes = Fixture.pngSignature + Self.ihdr + Fixture.pngChunk("iTXt", data) + Fixture.pngChunk("IEND", [])
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(!layout.isComplete)
        #expect(layout.problems.contains { $0.hasPrefix("unpatchable:") })
        #expect(layout.xmpPackets.isEmpty)
    }

    @Test(arguments: ["tEXt", "zTXt"])
    func rawProfileExifIsUnpatchable(type: String) {
        let data =
            Fixture.ascii("Raw profile type exif\0") + (type == "zTXt" ? [0, 0x78, 0x9C] : Fixture.ascii("\nexif\n 8\n49492a0008000000\n"))
        let bytes = Fixture.pngSignature + Self.ihdr + Fixture.pngChunk(type, data) + Fixture.pngChunk("IEND", [])
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(!layout.isComplete)
        #expect(layout.problems.contains { $0.hasPrefix("unpatchable:") })
    }

    @Test func compressedExifChunkIsUnpatchable() {
        let bytes = Fixture.pngSignature + Self.ihdr + Fixture.pngChunk("zxIf", [0x78, 0x9C, 0, 0]) + Fixture.pngChunk("IEND", [])
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(!layout.isComplete)
        #expect(layout.problems.contains { $0.hasPrefix("unpatchable:") })
    }

    @Test func ordinaryTextChunksAreIgnored() {
        let bytes =
            Fixture.pngSignature + Self.ihdr + Fixture.pngChunk("tEXt", Fixture.ascii("Comment\0hello")) + Fixture.pngChunk("IEND", [])
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(layout.isComplete && layout.problems.isEmpty && layout.xmpPackets.isEmpty)
    }

    @Test func chunkLengthPastTheEndIsIncomplete() {
        let bytes = Fixture.pngSignature + Self.ihdr + Fixture.be32(1000) + Fixture.ascii("eXIf") + Fixture.tiff()
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .png)
        #expect(!layout.isComplete)
        #expect(layout.exifBlocks.isEmpty)
    }
}

@Suite struct WebPWalkerTests {
    @Test(arguments: [false, true])
    func findsExifXmpAndCanvas(exifPrefix: Bool) {
        let tiff = Fixture.tiff(bigEndian: true)
        let xml = Fixture.ascii("<x:xmpmeta/>")  // 12 bytes
        let odd = [UInt8](repeating: 7, count: 3)
        let vp8x = Fixture.riffChunk("VP8X", [0x08, 0, 0, 0] + Fixture.le24(3999) + Fixture.le24(2999))
        let vp8l = Fixture.riffChunk("VP8L", [0x2F] + Fixture.le32((99) | (49 << 14)))
        let exifData = (exifPrefix ? Fixture.ascii("Exif\0\0") : []) + tiff
        let bytes = Fixture.webp([
            vp8x, Fixture.riffChunk("ALPH", odd), vp8l, Fixture.riffChunk("EXIF", exifData), Fixture.riffChunk("XMP ", xml),
        ])
        let exifStart = 12 + vp8x.count + 12 + vp8l.count + 8 + (exifPrefix ? 6 : 0)
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .webp)
        #expect(layout.exifBlocks == [range(exifStart, tiff.count)])
        #expect(layout.xmpPackets == [range(bytes.count - xml.count, xml.count)])
        #expect(layout.pixelWidth == 4000 && layout.pixelHeight == 3000)
        #expect(layout.isComplete && layout.problems.isEmpty)
    }

    @Test func simpleLosslessAndLossyDimensions() {
        let vp8l = Fixture.webp([Fixture.riffChunk("VP8L", [0x2F] + Fixture.le32((99) | (49 << 14)))])
        let l = ContainerWalker.layout(of: MemoryByteSource(vp8l), format: .webp)
        #expect(l.pixelWidth == 100 && l.pixelHeight == 50)
        let vp8 = Fixture.webp([Fixture.riffChunk("VP8 ", [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A] + Fixture.le16(320) + Fixture.le16(240))])
        let v = ContainerWalker.layout(of: MemoryByteSource(vp8), format: .webp)
        #expect(v.pixelWidth == 320 && v.pixelHeight == 240)
    }

    @Test func chunkPastTheRIFFEndIsIncomplete() {
        var bytes = Fixture.webp([Fixture.riffChunk("EXIF", Fixture.tiff())])
        bytes.replaceSubrange(16..<20, with: Fixture.le32(10_000))
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .webp)
        #expect(!layout.isComplete)
        #expect(layout.exifBlocks.isEmpty)
    }
}
