import Testing

@testable import MediaFormats

@Suite struct GIFWalkerTests {
    static let trailer: [UInt8] = [0x01] + (0...255).reversed().map { UInt8($0) } + [0x00]

    /// Header, global colour table, XMP application extension, one image, trailer.
    static func gif(xml: [UInt8]) -> (bytes: [UInt8], xmp: ByteRange) {
        var bytes = Fixture.ascii("GIF89a") + Fixture.le16(12) + Fixture.le16(7) + [0x80, 0, 0] + [UInt8](repeating: 0, count: 6)
        bytes += [0x21, 0xFF, 11] + Fixture.ascii("XMP DataXMP")
        let start = bytes.count
        bytes += xml + Self.trailer
        bytes += [0x21, 0xF9, 4, 0, 0, 0, 0, 0]  // Graphic control extension.
        bytes += [0x2C] + Fixture.le16(0) + Fixture.le16(0) + Fixture.le16(12) + Fixture.le16(7) + [0]
        bytes += [2, 3, 0x4C, 0x01, 0x05, 0, 0x3B]
        return (bytes, range(start, xml.count))
    }

    @Test(arguments: ["<x:xmpmeta>exif:GPSLatitude</x:xmpmeta>", "", "\u{7F}\u{7E}"])
    func findsXmpAndDimensions(text: String) {
        let f = Self.gif(xml: Fixture.ascii(text))
        let layout = ContainerWalker.layout(of: MemoryByteSource(f.bytes), format: .gif)
        #expect(layout.xmpPackets == [f.xmp])
        #expect(layout.pixelWidth == 12 && layout.pixelHeight == 7)
        #expect(layout.isComplete && layout.problems.isEmpty)
    }

    @Test func truncatedGIFIsIncomplete() {
        let f = Self.gif(xml: Fixture.ascii("<x/>"))
        let layout = ContainerWalker.layout(of: MemoryByteSource(Array(f.bytes.prefix(40))), format: .gif)
        #expect(!layout.isComplete)
        #expect(layout.xmpPackets.isEmpty)
    }
}
