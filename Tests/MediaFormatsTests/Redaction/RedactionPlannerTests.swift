import Testing

@testable import MediaFormats

@Suite struct RedactionPlannerTests {
    static let orders: [TIFFByteOrder] = [.littleEndian, .bigEndian]

    /// The standard TIFF fixture as the EXIF block of a JPEG-like file, 10 bytes in.
    static func jpegLike(_ fixture: TIFFFixture) -> (MemoryByteSource, ContainerLayout) {
        let bytes = fixture.embedded(after: 10) + [0xFF, 0xD9]
        let layout = ContainerLayout(format: .jpeg, exifBlocks: [ByteRange(offset: 10, length: Int64(fixture.bytes.count))])
        return (MemoryByteSource(bytes), layout)
    }

    func u32(_ order: TIFFByteOrder, _ values: UInt32...) -> [UInt8] { values.flatMap { order.bytes(of: $0) } }
    func u16(_ order: TIFFByteOrder, _ value: UInt16) -> [UInt8] { order.bytes(of: value) }

    @Test(arguments: orders)
    func stripRemovesTheGPSPointerAndZerosTheDirectory(order: TIFFByteOrder) {
        let fixture = TIFFFixture.standard(order)
        let (source, layout) = Self.jpegLike(fixture)
        let report = RedactionPlanner.report(layout: layout, source: source)
        #expect(report.found == .exifGPS)
        // IFD0 at 10+8 (30 bytes): one entry left (the EXIF pointer), its next-IFD offset
        // moved up, 12 zero bytes after it. No GPS pointer: readers see no GPS section.
        let ifd0 =
            u16(order, 1) + u16(order, 0x8769) + u16(order, 4) + u32(order, 1) + u32(order, 38) + u32(order, 0)
            + [UInt8](repeating: 0, count: 12)
        // GPS IFD at 10+60 (78 bytes) and its values at 10+160 (56 bytes): zeros.
        #expect(
            report.plans.strip
                == .patches([
                    Patch(offset: 18, bytes: ifd0), Patch(offset: 70, bytes: [UInt8](repeating: 0, count: 78)),
                    Patch(offset: 170, bytes: [UInt8](repeating: 0, count: 56)),
                ]))
    }

    @Test func gpsDirectoryWithOnlyItsVersionIsNoLocation() {
        var fixture = TIFFFixture(order: .littleEndian, length: 60)
        fixture.ifd(8, [(0x8825, 4, 1, 26)])
        fixture.ifd(26, [(0, 1, 4, 0)])
        fixture.inline(28, [2, 2, 0, 0])
        let (source, layout) = Self.jpegLike(fixture)
        let report = RedactionPlanner.report(layout: layout, source: source)
        #expect(report.found.isEmpty)
        #expect(report.plans.strip == .identity && report.plans.coarse == .identity)
        #expect(LocationPolicy.allCases.allSatisfy { report.plans.privatePlans.plan(for: $0) == .identity })
    }

    @Test(arguments: orders)
    func geoTIFFTagsAreLocationAndRemovedUnderBothPolicies(order: TIFFByteOrder) {
        // IFD0: ImageWidth, ModelPixelScale (3 DOUBLEs at 60), ModelTiepoint (6 DOUBLEs at 84).
        var fixture = TIFFFixture(order: order, length: 140)
        fixture.ifd(8, [(0x0100, 3, 1, 0x10), (33550, 12, 3, 60), (33922, 12, 6, 84)])
        let layout = ContainerLayout(format: .tiff, exifBlocks: [ByteRange(offset: 0, length: 140)])
        let report = RedactionPlanner.report(layout: layout, source: MemoryByteSource(fixture.bytes))
        #expect(report.found == .geoTIFF)
        let width = Array(fixture.bytes[10..<22])
        let ifd0 = u16(order, 1) + width + u32(order, 0) + [UInt8](repeating: 0, count: 24)
        let expected = RedactionPlan.patches([Patch(offset: 8, bytes: ifd0), Patch(offset: 60, bytes: [UInt8](repeating: 0, count: 72))])
        #expect(report.plans.strip == expected)
        #expect(report.plans.coarse == expected)
    }

    @Test(arguments: orders)
    func coarseKeepsRoundedCoordinatesOnly(order: TIFFByteOrder) {
        let (source, layout) = Self.jpegLike(.standard(order))
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ field: [UInt8]) -> [UInt8] {
            u16(order, tag) + u16(order, type) + u32(order, count) + field
        }
        var directory =
            u16(order, 5) + entry(0, 1, 4, [2, 3, 0, 0]) + entry(1, 2, 2, [0x4E, 0, 0, 0]) + entry(2, 5, 3, u32(order, 160))
            + entry(3, 2, 2, [0x45, 0, 0, 0]) + entry(4, 5, 3, u32(order, 184))
        directory += [UInt8](repeating: 0, count: 78 - directory.count)
        // 48°51'24" = 48.8567° → 4886/100; 2°21'9" = 2.3525° → 235/100; altitude zeroed.
        let values = u32(order, 4886, 100, 0, 1, 0, 1) + u32(order, 235, 100, 0, 1, 0, 1) + [UInt8](repeating: 0, count: 8)
        #expect(plans.coarse == .patches([Patch(offset: 70, bytes: directory), Patch(offset: 170, bytes: values)]))
    }

    @Test(arguments: orders)
    func uncertainBlockIsBlankedAsAnEmptyTIFF(order: TIFFByteOrder) {
        var fixture = TIFFFixture.standard(order)
        fixture.u16(60, 0xFFFF)  // the GPS IFD claims 65535 entries
        let (source, layout) = Self.jpegLike(fixture)
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        let blank: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0] + [UInt8](repeating: 0, count: 216 - 8)
        #expect(plans.strip == .patches([Patch(offset: 10, bytes: blank)]))
        #expect(plans.coarse == plans.strip)
    }

    @Test func uncertainTIFFFileIsWithheld() {
        var fixture = TIFFFixture.standard(.littleEndian)
        fixture.ifd(8, [(0x8825, 2, 4, 0)])  // GPSInfo pointer stored as ASCII
        let layout = ContainerLayout(format: .tiff, exifBlocks: [ByteRange(offset: 0, length: 216)])
        let plans = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(fixture.bytes))
        guard case .withheld = plans.strip, case .withheld = plans.coarse else {
            Issue.record("expected withheld, got \(plans)")
            return
        }
    }

    @Test func incompleteContainerIsWithheldAndSaysWhy() {
        let layout = ContainerLayout(format: .jpeg, problems: ["JPEG: segment length runs past the end"], isComplete: false)
        let plans = RedactionPlanner.plans(layout: layout, source: MemoryByteSource([0xFF, 0xD8]))
        #expect(plans.strip == .withheld(reason: "container not fully parsed: JPEG: segment length runs past the end"))
        #expect(plans.coarse == plans.strip)
    }

    @Test func fileWithoutLocationGetsNoPatches() {
        var fixture = TIFFFixture(order: .bigEndian, length: 40)
        fixture.ifd(8, [(0x0112, 3, 1, 0x0006_0000)])
        let (source, layout) = Self.jpegLike(fixture)
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        #expect(plans.strip == .identity && plans.coarse == .identity)
    }

    @Test func emptyGPSDirectoryIsLeftAlone() {
        var fixture = TIFFFixture(order: .littleEndian, length: 40)
        fixture.ifd(8, [(0x8825, 4, 1, 26)])
        fixture.ifd(26, [], next: 0x1234)
        let (source, layout) = Self.jpegLike(fixture)
        #expect(RedactionPlanner.plans(layout: layout, source: source).strip == .identity)
    }

    @Test func pngChunkGetsItsChecksumRewritten() {
        // A chunk "eXIf" + the standard fixture, its CRC after it.
        let fixture = TIFFFixture.standard(.bigEndian).bytes
        let chunkData = Array("eXIf".utf8) + fixture
        let crc = CRC32.checksum(chunkData)
        let file: [UInt8] = [0, 0, 0, UInt8(fixture.count)] + chunkData + TIFFByteOrder.bigEndian.bytes(of: crc)
        let layout = ContainerLayout(
            format: .png, exifBlocks: [ByteRange(offset: 8, length: Int64(fixture.count))],
            checksummedChunks: [
                ChecksummedChunk(covered: ByteRange(offset: 4, length: Int64(chunkData.count)), checksumOffset: Int64(4 + chunkData.count))
            ])
        let plan = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(file)).strip
        var patched = file
        #expect(plan.apply(to: &patched, at: 0))
        let newCRC = CRC32.checksum(Array(patched[4..<(4 + chunkData.count)]))
        #expect(patched.suffix(4).elementsEqual(TIFFByteOrder.bigEndian.bytes(of: newCRC)))
        #expect(newCRC != crc)
        // The zeroed GPS values end where the CRC starts, so the two patches merge into one
        // that ends with the new CRC.
        let last = try! #require(plan.patchesToServe?.last)
        #expect(last.end == Int64(file.count))
        #expect(last.bytes.suffix(4).elementsEqual(TIFFByteOrder.bigEndian.bytes(of: newCRC)))
    }

    @Test func crc32MatchesTheStandardCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
    }

    /// An `ilst` item holding the ISO 6709 value: item header (size, key index 2), `data`
    /// atom header (size, 'data', type 1, locale 0), then the text the layout points at.
    static func item(_ text: String) -> [UInt8] {
        let value = Array(text.utf8)
        let dataSize = UInt32(16 + value.count)
        let be = TIFFByteOrder.bigEndian
        return be.bytes(of: dataSize + 8) + [0, 0, 0, 2] + be.bytes(of: dataSize) + Array("data".utf8) + [0, 0, 0, 1, 0, 0, 0, 0] + value
    }

    @Test func videoPayloadsAreBlankedAndItemKeysUnset() {
        // ©xyz payload (length, language, text) at 0; an mdta item at 30, its value at 54.
        let xyz: [UInt8] = [0, 18, 0x15, 0xC7] + Array("+12.3456-098.7654/".utf8)
        let file = xyz + [UInt8](repeating: 0xEE, count: 8) + Self.item("+12.3456-098.7654/")
        let movie = MovieInfo(locationPayloads: [ByteRange(offset: 0, length: 22), ByteRange(offset: 54, length: 18)])
        let layout = ContainerLayout(format: .mov, movie: movie)
        let plan = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(file)).strip
        #expect(
            plan
                == .patches([
                    Patch(offset: 0, bytes: [UInt8](repeating: 0, count: 22)),
                    Patch(offset: 34, bytes: [0, 0, 0, 0]),
                    Patch(offset: 54, bytes: [UInt8](repeating: 0x20, count: 18)),
                ]))
        // A payload without an item around it is zeroed, and nothing before it is touched.
        let bare = [UInt8](repeating: 0xEE, count: 30) + Array("+12.3456-098.7654/".utf8)
        let bareLayout = ContainerLayout(format: .mov, movie: MovieInfo(locationPayloads: [ByteRange(offset: 30, length: 18)]))
        #expect(
            RedactionPlanner.plans(layout: bareLayout, source: MemoryByteSource(bare)).strip
                == .patches([Patch(offset: 30, bytes: [UInt8](repeating: 0, count: 18))]))
    }

    @Test func coarseRoundsVideoISO6709InPlace() {
        let xyz: [UInt8] = [0, 26, 0x15, 0xC7] + Array("+12.3456-098.7654+010.500/".utf8)
        let item = Self.item("-45.6789+001.2349/")
        let file = xyz + item
        let movie = MovieInfo(locationPayloads: [ByteRange(offset: 0, length: 30), ByteRange(offset: 54, length: 18)])
        let plan = RedactionPlanner.plans(layout: ContainerLayout(format: .mov, movie: movie), source: MemoryByteSource(file)).coarse
        var patched = file
        plan.apply(to: &patched, at: 0)
        let newXYZ: [UInt8] = [0, 14, 0x15, 0xC7] + Array("+12.35-098.77/".utf8) + [UInt8](repeating: 0, count: 12)
        let newItem = Array(item[0..<24]) + Array("-45.68+001.23/    ".utf8)
        #expect(patched == newXYZ + newItem)
    }

    @Test(
        arguments: [
            ("+37.4217-122.0834/", "+37.42-122.08/"),
            ("+37.4250-122.0850+030.000/", "+37.43-122.09/"),
            ("-00.0049+000.0050/", "-00.00+000.01/"),
            ("+89.999-179.996/", "+90.00-180.00/"),
            ("+37.4-122.1/", nil),  // rounding would lengthen it
            ("+4044.55-07400.33/", nil),  // degrees and minutes
            ("37.42-122.08/", nil),
            ("+91.00+000.00/", nil),
            ("", nil),
        ] as [(String, String?)])
    func iso6709Rounding(input: String, output: String?) {
        #expect(ISO6709Coarsener.coarsen(Array(input.utf8)).map { String(decoding: $0, as: UTF8.self) } == output)
    }

    @Test func xmpLocationIsBlankedInAttributeAndElementForms() {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:ex="http://ns.adobe.com/exif/1.0/" xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/" \
            ex:GPSLatitude='12,30.5N' ex:ExposureTime="1/60" photoshop:City="Somewhere">\
            <ex:GPSLongitude>7,10.2E</ex:GPSLongitude><photoshop:Country/><ex:FNumber>2.8</ex:FNumber>\
            <Iptc4xmpExt:LocationShown xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let bytes = Array(xmp.utf8)
        let file = [UInt8](repeating: 0x41, count: 5) + bytes
        let layout = ContainerLayout(format: .jpeg, xmpPackets: [ByteRange(offset: 5, length: Int64(bytes.count))])
        let plan = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(file)).strip
        var patched = file
        plan.apply(to: &patched, at: 0)
        let text = String(decoding: patched[5...], as: UTF8.self)
        func spaces(_ s: String) -> String { String(repeating: " ", count: s.utf8.count) }
        let expected =
            xmp
            .replacingOccurrences("ex:GPSLatitude='12,30.5N'", spaces("ex:GPSLatitude='12,30.5N'"))
            .replacingOccurrences("photoshop:City=\"Somewhere\"", spaces("photoshop:City=\"Somewhere\""))
            .replacingOccurrences("<ex:GPSLongitude>7,10.2E</ex:GPSLongitude>", spaces("<ex:GPSLongitude>7,10.2E</ex:GPSLongitude>"))
            .replacingOccurrences("<photoshop:Country/>", spaces("<photoshop:Country/>"))
        let shown =
            "<Iptc4xmpExt:LocationShown xmlns:Iptc4xmpExt=\"http://iptc.org/std/Iptc4xmpExt/2008-02-29/\"><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></Iptc4xmpExt:LocationShown>"
        #expect(text == expected.replacingOccurrences(shown, spaces(shown)))
        #expect(patched.prefix(5).allSatisfy { $0 == 0x41 })
    }

    @Test func coarseRoundsXMPCoordinatesAndBlanksTheRest() {
        let xmp =
            "<rdf:Description exif:GPSLatitude=\"53,50.0705N\" exif:GPSAltitude=\"12/1\">"
            + "<exif:GPSLongitude>10,41,45.06E</exif:GPSLongitude><photoshop:City>X</photoshop:City></rdf:Description>"
        let bytes = Array(xmp.utf8)
        let layout = ContainerLayout(format: .jpeg, xmpPackets: [ByteRange(offset: 0, length: Int64(bytes.count))])
        var patched = bytes
        RedactionPlanner.plans(layout: layout, source: MemoryByteSource(bytes)).coarse.apply(to: &patched, at: 0)
        // 53°50.0705' = 53.8345° → 53.83° = 53°49.8'; 10°41'45.06" = 10.6959° → 10.70° = 10°42.0'.
        // Each rewrite is padded to its old length; the separator and the blanked altitude
        // (`exif:GPSAltitude="12/1"`, 23 bytes) and city element (34 bytes) are spaces.
        func spaces(_ n: Int) -> String { String(repeating: " ", count: n) }
        let expected =
            "<rdf:Description exif:GPSLatitude=\"53,49.8N\"" + spaces(3 + 1 + 23) + ">"
            + "<exif:GPSLongitude>10,42.0E</exif:GPSLongitude>" + spaces(4 + 34) + "</rdf:Description>"
        #expect(String(decoding: patched, as: UTF8.self) == expected)
    }

    @Test(
        arguments: [
            ("53,50.0705N", "53,49.8N"), ("0,0.3S", "0,0.6S"), ("179,59.99W", "180,0.0W"), ("10,41,45.06E", "10,42.0E"),
            ("53,50.0705", nil), ("53.8345N", nil), ("181,0.0E", nil), ("53,x N", nil), ("", nil),
        ] as [(String, String?)])
    func xmpCoordinateRounding(input: String, output: String?) {
        #expect(XMPCoordinateCoarsener.coarsen(Array(input.utf8)[...]).map { String(decoding: $0, as: UTF8.self) } == output)
    }

    @Test func xmpInATIFFXMLPacketTagIsBlanked() {
        let xmp = Array("<rdf:Description exif:GPSLatitude=\"1,2.5N\" exif:FNumber=\"2\"/>".utf8)
        var fixture = TIFFFixture(order: .bigEndian, length: 30 + xmp.count)
        fixture.ifd(8, [(0x02BC, 7, UInt32(xmp.count), 30)])
        fixture.bytes.replaceSubrange(30..<(30 + xmp.count), with: xmp)
        let layout = ContainerLayout(format: .tiff, exifBlocks: [ByteRange(offset: 0, length: Int64(fixture.bytes.count))])
        let plan = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(fixture.bytes)).strip
        let attribute = "exif:GPSLatitude=\"1,2.5N\""
        #expect(plan == .patches([Patch(offset: 30 + 17, bytes: [UInt8](repeating: 0x20, count: attribute.utf8.count))]))
    }

    @Test func xmpWithAnUnrecognisedCoordinateIsBlankedWhole() {
        // A coordinate name in a comment-like position the scanner does not parse as a property.
        // The first packet starts with markup and is long enough for an empty xmpmeta element;
        // the second (a piece of extended XMP) becomes spaces.
        let first = Array("<x:xmpmeta><a b=\"1\"><c>GPSLatitude 12.5</c></a></x:xmpmeta>".utf8)
        let second = Array("de 12.5</c>GPSLongitude".utf8)
        let layout = ContainerLayout(
            format: .jpeg,
            xmpPackets: [
                ByteRange(offset: 0, length: Int64(first.count)), ByteRange(offset: Int64(first.count) + 1, length: Int64(second.count)),
            ])
        let plan = RedactionPlanner.plans(layout: layout, source: MemoryByteSource(first + [0] + second)).strip
        let empty = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8)
        #expect(
            plan
                == .patches([
                    Patch(offset: 0, bytes: empty + [UInt8](repeating: 0x20, count: first.count - empty.count)),
                    Patch(offset: Int64(first.count) + 1, bytes: [UInt8](repeating: 0x20, count: second.count)),
                ]))
    }

    @Test func xmpScannerSurvivesEveryTruncation() {
        let xmp = Array(
            "<rdf:Description exif:GPSLatitude=\"1\"><exif:GPSAltitude>3</exif:GPSAltitude><!-- c --><![CDATA[x]]><?pi?></rdf:Description>"
                .utf8)
        for end in 0...xmp.count {
            let scanner = XMPLocationScanner(Array(xmp[0..<end]))
            for blank in scanner.blanks { #expect(blank.lowerBound >= 0 && blank.upperBound <= end) }
        }
    }
}

extension String {
    /// Plain substring replacement without Foundation.
    func replacingOccurrences(_ target: String, _ replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
