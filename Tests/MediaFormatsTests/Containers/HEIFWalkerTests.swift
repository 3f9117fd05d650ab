import Testing

@testable import MediaFormats

@Suite struct HEIFWalkerTests {
    typealias F = Fixture

    static let exifPayload = F.be32(6) + F.ascii("Exif\0\0") + F.tiff(bigEndian: true)
    static let xml = F.ascii("<x:xmpmeta>location</x:xmpmeta>")
    static let image = [UInt8](repeating: 0xAB, count: 20)

    static func infe(_ id: Int, _ type: String, contentType: String? = nil, version: UInt8 = 2) -> [UInt8] {
        let idBytes = version == 2 ? F.be16(id) : F.be32(id)
        return F.fullBox(
            "infe", version: version, idBytes + F.be16(0) + F.ascii(type) + F.ascii("\0") + (contentType.map { F.ascii($0 + "\0") } ?? []))
    }

    /// iloc version 1, 4-byte offsets and lengths, no base offset; `items` are (id, method, extents).
    static func iloc(_ items: [(Int, Int, [(Int, Int)])]) -> [UInt8] {
        var body: [UInt8] = [0x44, 0x00] + F.be16(items.count)
        for (id, method, extents) in items {
            body += F.be16(id) + F.be16(method) + F.be16(0) + F.be16(extents.count)
            for (offset, length) in extents { body += F.be32(offset) + F.be32(length) }
        }
        return F.fullBox("iloc", version: 1, body)
    }

    /// ftyp, meta (hdlr, pitm, iinf, iloc, iprp), mdat (image, Exif payload, XMP).
    /// With `splitExif` the Exif item is stored in two extents.
    static func heic(splitExif: Int? = nil, infeVersion: UInt8 = 2) -> (bytes: [UInt8], exif: ByteRange, xmp: ByteRange, mdatData: Int) {
        let ftyp = F.box("ftyp", F.ascii("heic") + F.be32(0) + F.ascii("mif1heic"))
        func meta(mdatData: Int) -> [UInt8] {
            let imageAt = mdatData, exifAt = imageAt + image.count, xmpAt = exifAt + exifPayload.count
            let exifExtents = splitExif.map { [(exifAt, $0), (exifAt + $0, exifPayload.count - $0)] } ?? [(exifAt, exifPayload.count)]
            let iinf = F.fullBox(
                "iinf",
                F.be16(3) + infe(1, "hvc1", version: infeVersion) + infe(2, "Exif", version: infeVersion)
                    + infe(3, "mime", contentType: "application/rdf+xml", version: infeVersion))
            let ipco = F.box("ipco", F.fullBox("ispe", F.be32(64) + F.be32(48)) + F.fullBox("ispe", F.be32(4032) + F.be32(3024)))
            let ipma = F.fullBox("ipma", F.be32(1) + F.be16(1) + [1, 0x82])
            return F.fullBox(
                "meta",
                F.fullBox("hdlr", F.be32(0) + F.ascii("pict") + [UInt8](repeating: 0, count: 13)) + F.fullBox("pitm", F.be16(1)) + iinf
                    + iloc([(1, 0, [(imageAt, image.count)]), (2, 0, exifExtents), (3, 0, [(xmpAt, xml.count)])])
                    + F.box("iprp", ipco + ipma))
        }
        let metaLength = meta(mdatData: 0).count
        let mdatData = ftyp.count + metaLength + 8
        let bytes = ftyp + meta(mdatData: mdatData) + F.box("mdat", image + exifPayload + xml)
        let exifAt = mdatData + image.count
        let tiffAt = exifAt + 10
        return (bytes, range(tiffAt, exifPayload.count - 10), range(exifAt + exifPayload.count, xml.count), mdatData)
    }

    @Test(arguments: [UInt8(2), 3])
    func findsExifXmpAndPrimaryDimensions(infeVersion: UInt8) {
        let f = Self.heic(infeVersion: infeVersion)
        let layout = ContainerWalker.layout(of: MemoryByteSource(f.bytes), format: .heic)
        #expect(layout.exifBlocks == [f.exif])
        #expect(layout.xmpPackets == [f.xmp])
        #expect(layout.pixelWidth == 4032 && layout.pixelHeight == 3024)
        #expect(layout.isComplete && layout.problems.isEmpty)
        #expect(f.bytes[Int(f.exif.offset)] == 0x4D)
    }

    @Test func tiffSplitOverExtentsIsOneRangePerExtentAndIncomplete() {
        let f = Self.heic(splitExif: 20)
        let layout = ContainerWalker.layout(of: MemoryByteSource(f.bytes), format: .heic)
        #expect(layout.exifBlocks == [range(Int(f.exif.offset), 10), range(Int(f.exif.offset) + 10, Self.exifPayload.count - 20)])
        #expect(!layout.isComplete)
    }

    @Test func headerInItsOwnExtentLeavesTheTIFFWhole() {
        let f = Self.heic(splitExif: 10)
        let layout = ContainerWalker.layout(of: MemoryByteSource(f.bytes), format: .heic)
        #expect(layout.exifBlocks == [f.exif])
        #expect(layout.isComplete)
    }

    @Test func idatConstructionAndVersion2Iloc() {
        let tiff = F.tiff()
        let idatPayload = F.be32(0) + tiff
        // iloc v2: 8-byte offsets, 4-byte lengths, 4-byte base offset, 32-bit ids and count.
        let iloc = F.fullBox(
            "iloc", version: 2,
            [0x84, 0x40] + F.be32(1) + F.be32(7) + F.be16(1) + F.be16(0) + F.be32(0) + F.be16(1) + F.be64(0) + F.be32(idatPayload.count))
        let iinf = F.fullBox("iinf", version: 1, F.be32(1) + Self.infe(7, "Exif", version: 3))
        let ftyp = F.box("ftyp", F.ascii("avif") + F.be32(0) + F.ascii("avifmif1"))
        let head = ftyp + F.be32(0) + F.ascii("meta") + [0, 0, 0, 0] + iinf + iloc
        let idatStart = head.count + 8
        var bytes = head + F.box("idat", idatPayload)
        bytes.replaceSubrange(ftyp.count..<(ftyp.count + 4), with: F.be32(bytes.count - ftyp.count))
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .avif)
        #expect(layout.exifBlocks == [range(idatStart + 4, tiff.count)])
        #expect(layout.isComplete)
    }

    @Test func childLargerThanItsParentIsIncomplete() {
        var f = Self.heic().bytes
        // The hdlr box inside meta claims 1 MiB.
        let hdlr = F.offset(of: F.ascii("hdlr"), in: f)! - 4
        f.replaceSubrange(hdlr..<(hdlr + 4), with: F.be32(1 << 20))
        let layout = ContainerWalker.layout(of: MemoryByteSource(f), format: .heic)
        #expect(!layout.isComplete)
    }

    @Test func exifItemOutsideTheFileIsIncomplete() {
        let f = Self.heic()
        let layout = ContainerWalker.layout(of: MemoryByteSource(Array(f.bytes.prefix(f.mdatData + 5))), format: .heic)
        #expect(!layout.isComplete)
        #expect(layout.exifBlocks.isEmpty)
    }

    @Test func missingMetaIsIncomplete() {
        let bytes = F.box("ftyp", F.ascii("heic") + F.be32(0)) + F.box("mdat", [1, 2, 3])
        #expect(!ContainerWalker.layout(of: MemoryByteSource(bytes), format: .heic).isComplete)
    }

    @Test func largeAndZeroSizes() {
        // A 64-bit size box followed by a size-0 box running to the end of the file.
        let ftyp = F.be32(1) + F.ascii("ftyp") + F.be64(24) + F.ascii("heic") + F.be32(0)
        let bytes = ftyp + F.be32(0) + F.ascii("mdat") + [1, 2, 3, 4]
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .heic)
        #expect(layout.problems == ["HEIF: no meta box"])
    }
}
