import Testing

@testable import MediaFormats

/// The places the location model finds besides EXIF GPS, each on a small built file:
/// what `report.found` says (what `has:location` tests) and the patches that remove it.
@Suite struct LocationModelTests {
    func be32(_ value: UInt32) -> [UInt8] { TIFFByteOrder.bigEndian.bytes(of: value) }
    func be16(_ value: UInt16) -> [UInt8] { TIFFByteOrder.bigEndian.bytes(of: value) }

    func report(_ bytes: [UInt8]) throws -> (ContainerLayout, RedactionReport) {
        let source = MemoryByteSource(bytes)
        let format = try #require(MediaSniffer.format(of: source))
        let layout = ContainerWalker.layout(of: source, format: format)
        return (layout, RedactionPlanner.report(layout: layout, source: source))
    }

    @Test func iptcInAnAFCPTrailerIsFoundAndRemoved() throws {
        let iptc: [UInt8] = [0x1C, 2, 0, 0, 2, 0, 4] + [0x1C, 2, 90, 0, 5] + Array("Paris".utf8)
        let start: UInt32 = 4
        let directory = Array("AXS!".utf8) + [0, 1] + be16(1) + [0, 0, 0, 0] + Array("IPTC".utf8) + be32(UInt32(iptc.count)) + be32(28)
        let file = [0xFF, 0xD8, 0xFF, 0xD9] + directory + iptc + Array("AXS!".utf8) + be32(start) + be32(0)
        let (layout, report) = try self.report(file)
        #expect(layout.iptcBlocks == [ByteRange(offset: 28, length: Int64(iptc.count))])
        #expect(report.found == .iptc)
        #expect(report.plans.strip == .patches([Patch(offset: 37, bytes: [254]), Patch(offset: 40, bytes: Array("     ".utf8))]))
    }

    @Test func anAFCPTrailerThatDoesNotWalkIsWithheld() throws {
        let file = [0xFF, 0xD8, 0xFF, 0xD9] + [UInt8](repeating: 0, count: 20) + Array("AXS!".utf8) + be32(4) + be32(0)
        let (_, report) = try self.report(file)
        #expect(report.found == .unverified)
        guard case .withheld = report.plans.strip else {
            Issue.record("expected withheld, got \(report.plans.strip)")
            return
        }
    }

    /// A JPEG whose one FLIR segment holds an FFF record with a GPS record (type 0x2B).
    func flirJPEG(total: UInt8 = 0) -> [UInt8] {
        var fff = Array("FFF\0".utf8) + [UInt8](repeating: 0, count: 16) + be32(100) + be32(64) + be32(1)
        fff += [UInt8](repeating: 0, count: 64 - fff.count)
        fff += be16(0x2B) + be16(1) + be32(100) + be32(1) + be32(96) + be32(8) + [UInt8](repeating: 0, count: 12)
        fff += [1, 2, 3, 4, 5, 6, 7, 8]
        let segment = Array("FLIR\0".utf8) + [1, 0, total] + fff
        return [0xFF, 0xD8, 0xFF, 0xE1] + be16(UInt16(segment.count + 2)) + segment + [0xFF, 0xD9]
    }

    @Test func theFLIRGPSRecordIsFoundAndFreed() throws {
        let (layout, report) = try self.report(flirJPEG())
        #expect(layout.flirChunks == [FLIRChunk(number: 0, total: 1, data: ByteRange(offset: 14, length: 104))])
        #expect(report.found == .flir)
        // The entry's type (stream 64, file 78) becomes 0, the record (stream 96) zeros.
        #expect(
            report.plans.strip == .patches([Patch(offset: 78, bytes: [0, 0]), Patch(offset: 110, bytes: [UInt8](repeating: 0, count: 8))]))
        #expect(report.plans.coarse == report.plans.strip)
    }

    @Test func flirChunksThatDoNotAddUpAreWithheld() throws {
        let (_, report) = try self.report(flirJPEG(total: 1))  // says two chunks, has one
        #expect(report.found == .unverified)
        guard case .withheld = report.plans.strip else {
            Issue.record("expected withheld, got \(report.plans.strip)")
            return
        }
    }

    @Test(arguments: [
        ("<rdf:Description xmlns:photomech=\"http://ns.camerabits.com/photomechanic/1.0/\" photomech:CountryCode=\"FR\"/>", true),
        ("<rdf:Description xmlns:a=\"urn:x\"><a:Sublocation>Left bank</a:Sublocation></rdf:Description>", true),
        ("<rdf:Description xmlns:drone-dji=\"http://www.dji.com/drone-dji/1.0/\" drone-dji:RelativeAltitude=\"+12.3\"/>", true),
        ("<rdf:Description xmlns:exif=\"http://ns.adobe.com/exif/1.0/\" exif:GPSVersionID=\"2.2.0.0\"/>", false),
        (
            "<rdf:Description xmlns:Iptc4xmpCore=\"http://iptc.org/std/Iptc4xmpCore/1.0/xmlns/\"><Iptc4xmpCore:CreatorContactInfo Iptc4xmpCore:CiAdrCity=\"Lyon\"/></rdf:Description>",
            false
        ),
        ("<rdf:Description xmlns:xmpRights=\"http://ns.adobe.com/xap/1.0/rights/\" xmpRights:WebStatement=\"x\"/>", false),
    ])
    func xmpPlacesInAnyNamespace(packet: String, found: Bool) {
        let scanner = XMPLocationScanner(Array(packet.utf8))
        #expect(scanner.foundLocation == found, "\(packet)")
        #expect(scanner.uncertain == false)
    }

    @Test func droneFlightDataIsBlankedWhole() {
        let packet = "<rdf:Description xmlns:drone-dji=\"http://www.dji.com/drone-dji/1.0/\" drone-dji:FlightRollDegree=\"+1.0\"/>"
        let scanner = XMPLocationScanner(Array(packet.utf8))
        #expect(scanner.blanks.count == 1)
        #expect(!scanner.foundLocation)
    }

    @Test func aThumbnailWithItsOwnGPSIsWalked() throws {
        let inner = TIFFFixture.standard(.littleEndian).bytes
        let innerSegment = Array("Exif\0\0".utf8) + inner
        let thumbnail = [0xFF, 0xD8, 0xFF, 0xE1] + be16(UInt16(innerSegment.count + 2)) + innerSegment + [0xFF, 0xD9]
        let le = TIFFByteOrder.littleEndian
        // IFD0 (no entries) → IFD1 at 14: JPEGInterchangeFormat at 44, its length.
        var outer: [UInt8] = [0x49, 0x49, 0x2A, 0] + le.bytes(of: UInt32(8)) + le.bytes(of: UInt16(0)) + le.bytes(of: UInt32(14))
        outer +=
            le.bytes(of: UInt16(2)) + le.bytes(of: UInt16(0x0201)) + le.bytes(of: UInt16(4)) + le.bytes(of: UInt32(1))
            + le.bytes(of: UInt32(44))
        outer +=
            le.bytes(of: UInt16(0x0202)) + le.bytes(of: UInt16(4)) + le.bytes(of: UInt32(1)) + le.bytes(of: UInt32(UInt32(thumbnail.count)))
        outer += le.bytes(of: UInt32(0)) + thumbnail
        let segment = Array("Exif\0\0".utf8) + outer
        let file = [0xFF, 0xD8, 0xFF, 0xE1] + be16(UInt16(segment.count + 2)) + segment + [0xFF, 0xD9]
        let (layout, report) = try self.report(file)
        #expect(layout.exifBlocks.count == 2)
        #expect(report.found == .exifGPS)
        guard case .patches(let patches) = report.plans.strip, !patches.isEmpty else {
            Issue.record("the thumbnail's GPS is not removed: \(report.plans.strip)")
            return
        }
    }

    @Test func iptcInsideAMakerNoteIsFound() {
        let bytes: [UInt8] = [9, 9] + [0x1C, 2, 0, 0, 2, 0, 4] + [0x1C, 2, 101, 0, 6] + Array("Canada".utf8) + [0, 0]
        let found = IPTCLocationRedactor.embeddedLocationDatasets(in: bytes)
        #expect(found == [IPTCLocationRedactor.Dataset(numberIndex: 11, value: 14..<20)])
    }

    @Test func newFormatsAreCataloguedAndWithheldWhereMetadataIsUnreadable() throws {
        let bigTIFF: [UInt8] = [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0]
        let (_, report) = try self.report(bigTIFF)
        #expect(report.found == .unverified)
        let bareJXL: [UInt8] = [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90]
        let (_, jxl) = try self.report(bareJXL)
        #expect(jxl.found.isEmpty && jxl.plans.strip == .identity && jxl.plans.coarse == .identity)
        #expect(jxl.plans.privatePlans.plan(for: .strip) == .identity)
    }
}
