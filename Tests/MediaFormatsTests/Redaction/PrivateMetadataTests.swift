import Testing

@testable import MediaFormats

/// `--metadata private`: what the planner removes from EXIF, XMP, IPTC and JPEG/PNG
/// segments, what it keeps, and the stored form the read path overlays from.
@Suite struct PrivateMetadataTests {
    static let orders: [TIFFByteOrder] = [.littleEndian, .bigEndian]

    /// The standard fixture plus identity: IFD0 gains Artist (→ 216) and Make (inline
    /// "Cam"); the Exif IFD gains BodySerialNumber (→ 232) and a MakerNote (→ 248).
    ///
    ///     8    IFD0: Make, Artist → 216, ExifIFD → 62, GPSInfo → 104     (54 bytes)
    ///     62   Exif IFD: DateTimeOriginal → 140, BodySerial → 232, MakerNote → 248 (42 bytes)
    ///     104  GPS IFD: VersionID only (no location)                    (18 bytes)
    ///     140  "2024:06:15 12:00:00\0", 160/184/208 GPS values (unused here)
    ///     216  "Ada Lovelace\0" (16), 232 "SN-0042\0" (16), 248 maker note (16)
    static func fixture(_ order: TIFFByteOrder) -> TIFFFixture {
        var f = TIFFFixture(order: order, length: 264)
        f.ifd(8, [(0x010F, 2, 4, 0), (0x013B, 2, 16, 216), (0x8769, 4, 1, 62), (0x8825, 4, 1, 104)])
        f.inline(10, Array("Cam".utf8) + [0])
        f.ifd(62, [(0x9003, 2, 20, 140), (0xA431, 2, 16, 232), (0x927C, 7, 16, 248)])
        f.ifd(104, [(0, 1, 4, 0)])
        f.inline(106, [2, 3, 0, 0])
        f.bytes.replaceSubrange(140..<160, with: Array("2024:06:15 12:00:00".utf8) + [0])
        f.bytes.replaceSubrange(216..<232, with: Array("Ada Lovelace".utf8) + [0, 0, 0, 0])
        f.bytes.replaceSubrange(232..<248, with: Array("SN-0042".utf8) + [UInt8](repeating: 0, count: 9))
        f.bytes.replaceSubrange(248..<264, with: Array("Nikon\0HOME=Paris".utf8))
        return f
    }

    @Test(arguments: orders)
    func privateRemovesIdentityTagsAndKeepsTheRest(order: TIFFByteOrder) throws {
        let fixture = Self.fixture(order)
        let bytes = fixture.embedded(after: 10) + [0xFF, 0xD9]
        let layout = ContainerLayout(format: .jpeg, exifBlocks: [ByteRange(offset: 10, length: Int64(fixture.bytes.count))])
        let source = MemoryByteSource(bytes)
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        // The plans of apps with --metadata keep are what they were: nothing to remove here.
        #expect(plans.strip == .identity && plans.coarse == .identity)
        for policy in LocationPolicy.allCases {
            var served = bytes
            #expect(plans.plan(for: policy, metadata: .private).apply(to: &served, at: 0))
            #expect(served.count == bytes.count)
            let walked = TIFFWalker().walk(MemoryByteSource(served), block: layout.exifBlocks[0])
            let tags = Set(walked.directories.flatMap(\.entries).map(\.tag))
            #expect(tags.isDisjoint(with: [0x013B, 0xA431, 0x927C]), "\(policy)")
            #expect(tags.isSuperset(of: [0x010F, 0x8769, 0x9003]), "\(policy)")
            // The removed values are zeros; the date and make are untouched.
            #expect(served[(10 + 216)..<(10 + 264)].allSatisfy { $0 == 0 }, "\(policy)")
            #expect(served[(10 + 140)..<(10 + 160)].elementsEqual(bytes[(10 + 140)..<(10 + 160)]))
            let text = String(decoding: served, as: UTF8.self)
            #expect(!text.contains("Lovelace") && !text.contains("SN-0042") && !text.contains("Paris"))
        }
    }

    @Test func xmpKeepsTheListedPropertiesAndDropsOffsetsAndIds() {
        let packet = Array(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="uuid:1234" xmlns:tiff="http://ns.adobe.com/tiff/1.0/" \
            xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/" \
            xmlns:aux="http://ns.adobe.com/exif/1.0/aux/" tiff:Orientation="6" aux:SerialNumber="4242" \
            exif:DateTimeOriginal="2020-01-02T03:04:05+02:00">\
            <dc:creator><rdf:Seq><rdf:li>Ada Lovelace</rdf:li></rdf:Seq></dc:creator>\
            <exif:GPSLatitude>48,51.4N</exif:GPSLatitude><!-- Grace -->\
            <tiff:Make>Cam</tiff:Make></rdf:Description></rdf:RDF></x:xmpmeta>
            """.utf8)
        let scanner = XMPIdentityScanner(packet)
        var served = packet
        for blank in scanner.blanks { served.replaceSubrange(blank, with: repeatElement(0x20, count: blank.count)) }
        for rewrite in scanner.rewrites { served.replaceSubrange(rewrite.range, with: rewrite.bytes) }
        let text = String(decoding: served, as: UTF8.self)
        #expect(served.count == packet.count)
        for gone in ["Lovelace", "4242", "Grace", "+02:00", "uuid:1234", "dc:creator", "SerialNumber"] {
            #expect(!text.contains(gone), "\(gone) survives")
        }
        // Kept: orientation, make, the date without its offset, and the GPS property (left
        // to the location policy); the markup stays well-formed around the blanks.
        for kept in [
            "tiff:Orientation=\"6\"", "<tiff:Make>Cam</tiff:Make>", "exif:DateTimeOriginal=\"2020-01-02T03:04:05\"",
            "<exif:GPSLatitude>48,51.4N</exif:GPSLatitude>", "rdf:about=\"\"", "</rdf:Description></rdf:RDF></x:xmpmeta>",
        ] {
            #expect(text.contains(kept), "\(kept) is lost")
        }
    }

    @Test func iptcIdentityDatasetsAreRenamedAndBlanked() throws {
        // By-line (2:80), City (2:90) and Urgency (2:10) as raw IPTC of a TIFF-like source.
        let data: [UInt8] =
            [0x1C, 2, 80, 0, 3] + Array("Ada".utf8) + [0x1C, 2, 90, 0, 5] + Array("Paris".utf8) + [0x1C, 2, 10, 0, 1, 0x35]
        var redactor = IPTCLocationRedactor()
        redactor.datasets = IdentityTags.iptcDatasets
        var patches = PatchList()
        let outcome = try redactor.planIPTC(ByteRange(offset: 0, length: Int64(data.count)), source: MemoryByteSource(data), into: &patches)
        #expect(outcome == .redacted(datasets: 1))
        var served = data
        PatchOverlay.apply(patches.merged(), to: &served, at: 0)
        // The by-line is gone; the city (location, kept under --location keep) and the urgency stay.
        #expect(served[2] == IPTCLocationRedactor.unusedDataset && served[5..<8].allSatisfy { $0 == 0x20 })
        #expect(served[8...] == data[8...])
    }

    @Test func jpegCommentsAndUnknownSegmentsAreHidden() {
        // SOI, COM "Ada", APP12 "Ducky...", APP2 ICC, SOS.
        let com: [UInt8] = [0xFF, 0xFE, 0, 5] + Array("Ada".utf8)
        let app12: [UInt8] = [0xFF, 0xEC, 0, 7] + Array("Ducky".utf8)
        let icc: [UInt8] = [0xFF, 0xE2, 0, 14] + Array("ICC_PROFILE\0".utf8)
        let file: [UInt8] = [0xFF, 0xD8] + com + app12 + icc + [0xFF, 0xDA, 0, 2, 0x11, 0xFF, 0xD9]
        let source = MemoryByteSource(file)
        let layout = ContainerWalker.layout(of: source, format: .jpeg)
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        #expect(plans.strip == .identity)
        var served = file
        #expect(plans.privatePlans.plan(for: .strip).apply(to: &served, at: 0))
        // The comment is an APP15 of zeros; APP12 is zeros; the ICC profile is untouched.
        #expect(Array(served[2..<9]) == [0xFF, 0xEF, 0, 5, 0, 0, 0])
        #expect(Array(served[9..<13]) == [0xFF, 0xEC, 0, 7] && served[13..<18].allSatisfy { $0 == 0 })
        #expect(served[18...] == file[18...])
    }

    @Test func formatsPrivateCannotHandleAreWithheldFromPrivateAppsOnly() {
        // MPEG-TS: its identity metadata is not read.
        let layout = ContainerLayout(format: .mpegTS)
        let plans = RedactionPlanner.plans(layout: layout, source: MemoryByteSource([UInt8](repeating: 0, count: 16)))
        #expect(plans.strip == .identity)
        for policy in LocationPolicy.allCases {
            #expect(plans.isWithheld(for: policy, metadata: .private))
            #expect(!plans.isWithheld(for: policy, metadata: .keep))
        }
        #expect(PrivatePlans.notPlanned.isWithheld(for: .keep))
    }

    /// The read path overlays straight from the stored form: the same bytes as decoding
    /// the plan and overlaying its patches, for every window of a file.
    @Test func encodedOverlayMatchesTheDecodedPlan() throws {
        let patchesA = [
            Patch(offset: 3, bytes: [1, 2, 3]), Patch(offset: 10, bytes: [UInt8](repeating: 0, count: 9)), Patch(offset: 40, bytes: [7]),
        ]
        let plans = PrivatePlans(keep: .patches(patchesA), strip: .withheld(reason: "no"), coarse: .identity)
        let stored = try PrivatePlans(encoded: plans.encoded)
        #expect(stored == plans)
        #expect(stored.plan(for: .keep) == .patches(patchesA))
        #expect(stored.isWithheld(for: .strip) && !stored.isWithheld(for: .coarse))
        let original = (0..<48).map { UInt8($0 + 100) }
        for start in 0..<original.count {
            for end in start...original.count {
                var expected = Array(original[start..<end])
                PatchOverlay.apply(patchesA, to: &expected, at: Int64(start))
                var served = Array(original[start..<end])
                let ok = served.withUnsafeMutableBytes { stored.apply(for: .keep, to: $0, at: Int64(start)) }
                #expect(ok && served == expected, "window \(start)..<\(end)")
            }
        }
        // A plan equal to the one before is stored once.
        let shared = PrivatePlans(keep: .patches(patchesA), strip: .patches(patchesA), coarse: .withheld(reason: "no"))
        let once = RedactionPlan.patches(patchesA).encoded().count
        #expect(shared.encoded.count == 1 + once + 1 + RedactionPlan.withheld(reason: "no").encoded().count)
        #expect(shared.plan(for: .strip) == .patches(patchesA) && shared.isWithheld(for: .coarse))
        #expect(try PrivatePlans(encoded: shared.encoded) == shared)
        var buffer = [UInt8](repeating: 9, count: 4)
        #expect(!buffer.withUnsafeMutableBytes { stored.apply(for: .strip, to: $0, at: 0) })
        #expect(buffer == [9, 9, 9, 9])
        #expect(throws: RedactionPlanDecodingError.self) { try PrivatePlans(encoded: Array(plans.encoded.dropLast())) }
    }
}
