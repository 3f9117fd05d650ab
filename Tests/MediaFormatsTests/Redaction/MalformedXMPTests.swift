import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// A malformed XMP packet (a property without its end tag) is blanked whole, not from the
/// bad element to the packet's end: the served file keeps well-formed (empty) XMP, so
/// readers report nothing they did not report on the original.
@Suite struct MalformedXMPTests {
    /// A packet whose `exif:GPSLatitude` element is never closed, inside closed RDF markup.
    static let unclosed = Array(
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description rdf:about="" xmlns:exif="http://ns.adobe.com/exif/1.0/">\
        <exif:GPSLatitude>48,51.4N</exif:GPSLatitudX><exif:FNumber>9/5</exif:FNumber>\
        </rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)

    @Test func anUnclosedLocationElementMakesTheLocationScanUncertain() {
        let scanner = XMPLocationScanner(Self.unclosed)
        #expect(scanner.uncertain)
        #expect(scanner.foundLocation)
    }

    @Test func anUnclosedPropertyMakesTheIdentityScanBlankTheWholePacket() {
        #expect(XMPIdentityScanner(Self.unclosed).malformed)
        // A piece of extended XMP (no closing markup of its own) is cut anywhere: not malformed.
        let piece = Array("<rdf:Description rdf:about=\"\"><dc:creator><rdf:Seq><rdf:li>Ada".utf8)
        #expect(!XMPIdentityScanner(piece).malformed)
    }

    @Test func everyPlanReplacesTheWholeMalformedPacket() throws {
        let bytes = Array("junk".utf8) + Self.unclosed
        let packet = ByteRange(offset: 4, length: Int64(Self.unclosed.count))
        let layout = ContainerLayout(format: .mp4, xmpPackets: [packet])
        let report = RedactionPlanner.report(layout: layout, source: MemoryByteSource(bytes))
        #expect(report.found.contains(.xmp))
        let expected = Array("junk".utf8) + RedactionPlanner.emptyXMP(replacing: Self.unclosed)
        for policy in [LocationPolicy.strip, .coarse] {
            for metadata in [MetadataPolicy.keep, .private] {
                var served = bytes
                #expect(report.plans.plan(for: policy, metadata: metadata).apply(to: &served, at: 0))
                #expect(served == expected, "\(policy) \(metadata)")
            }
        }
    }

    /// The corpus MP4 with XMP in a `uuid` box, its `exif:GPSLatitude` end tag misspelt (as
    /// a broken writer leaves it): exiftool warns about the original; the strip, coarse and
    /// private views carry no location and exiftool has no warning for them that it did not
    /// have for the original.
    @Test func aMalformedPacketInACorpusMP4IsBlankedWholeAndExiftoolHasNoNewWarning() throws {
        guard let dir = Corpus.directory else { try Skip.because("MalformedXMPTests: corpus not found (set PHOTOFS_CORPUS)") }
        guard let exiftool = ExternalTools.exiftool else { try Skip.because("MalformedXMPTests: exiftool not installed") }
        let original = try #require(FileByteSource.contents(of: dir + "/aosp-mediaprovider/test_video_xmp.mp4"))
        let good = Array("</exif:GPSLatitude>".utf8)
        let bad = Array("</exif:GPSLatitudX>".utf8)
        let at = try #require((0...(original.count - good.count)).first { original[$0..<($0 + good.count)].elementsEqual(good) })
        var broken = original
        broken.replaceSubrange(at..<(at + bad.count), with: bad)
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let brokenPath = folder.appendingPathComponent("broken.mp4").path
        try Data(broken).write(to: URL(fileURLWithPath: brokenPath))

        func warnings(_ path: String) throws -> Set<String> {
            let out = try ExternalTools.run(exiftool, ["-a", "-s", "-s", "-s", "-warning", "-error", path]).stdout
            return Set(out.split(separator: "\n").map(String.init))
        }
        let before = try warnings(brokenPath)
        #expect(before.contains { $0.contains("XMP format error") }, "the test file is not malformed: \(before)")

        let source = MemoryByteSource(broken)
        let layout = ContainerWalker.layout(of: source, format: .mp4)
        let report = RedactionPlanner.report(layout: layout, source: source)
        #expect(report.found.contains(.xmp))
        for (label, plan) in [
            ("strip", report.plans.strip), ("coarse", report.plans.coarse),
            ("private strip", report.plans.plan(for: .strip, metadata: .private)),
            ("private coarse", report.plans.plan(for: .coarse, metadata: .private)),
        ] {
            var served = broken
            #expect(plan.apply(to: &served, at: 0), "\(label) withheld")
            let path = folder.appendingPathComponent("\(label.replacingOccurrences(of: " ", with: "-")).mp4").path
            try Data(served).write(to: URL(fileURLWithPath: path))
            let new = try warnings(path).subtracting(before)
            #expect(new.isEmpty, "\(label): exiftool warns \(new)")
            let tags = try ExternalTools.run(exiftool, ["-ee", "-a", "-G1", "-s", "-XMP:all", path]).stdout
            #expect(!tags.contains("GPS"), "\(label): XMP location survives")
            #expect(!String(decoding: served, as: UTF8.self).contains("53,50.07"), "\(label): the latitude survives")
        }
    }
}
