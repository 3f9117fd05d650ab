import Foundation
import MediaFormats
import PhotoCore
import PhotoHashing
import PhotoSamples
import Testing

@testable import PhotoMetadata

/// Pins what `FileAnalyzer` makes of a fixed set of files (fingerprint, metadata and every
/// redaction plan, byte for byte), so that work on the analyzer's speed cannot change a
/// plan unnoticed. The digests were taken from the analyzer before it was tuned; a change
/// that is meant to alter plans updates them and says why.
@Suite struct AnalysisPinTests {
    /// Everything the indexer keeps from one analysis, as bytes.
    static func record(_ analysis: AssetAnalysis) -> [UInt8] {
        var bytes = Array(analysis.fingerprint.utf8)
        let m = analysis.metadata
        // Property by property: the stored form shares camera texts by reference.
        let fields: [Any?] = [
            m.format, m.captureDate, m.dateSource, m.make, m.model, m.lens, m.software, m.orientation, m.width, m.height,
            m.location, m.locationSources.rawValue, m.hasExif, m.saysScreenshot, m.problems,
        ]
        bytes += Array(fields.map { String(describing: $0) }.joined(separator: "|").utf8)
        bytes += analysis.redaction.strip.encoded()
        bytes += analysis.redaction.coarse.encoded()
        bytes += analysis.redaction.privatePlans.encoded
        return bytes
    }

    /// Analyses `files` from disk and hashes their records in order.
    static func digest(of files: [(name: String, bytes: [UInt8])]) throws -> String {
        let directory = try TemporaryDirectory()
        var hasher = SHA256()
        for file in files {
            let path = try directory.write(name: Array(file.name.utf8), bytes: file.bytes)
            let analysis = try FileAnalyzer().analyze(absolutePath: path)
            hasher.update(Array(file.name.utf8))
            hasher.update(record(analysis))
        }
        return hasher.finalize().map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
            .joined()
    }

    /// `photofs generate`'s photos: EXIF in both byte orders, GPS on about half, XMP, scans
    /// without EXIF.
    @Test func generatedLibraryPlansAreUnchanged() throws {
        let library = SampleLibrary(seed: 7, count: 120)
        let files = try library.files().map { (name: $0.relativePath.replacingOccurrences(of: "/", with: "_"), bytes: $0.bytes) }
        let digest = try Self.digest(of: files)
        #expect(digest == "74ab34bf61d935cd09e5d8716da697e867f5ba9cd12e2a2c20355fff49906cd6", "digest \(digest)")
    }

    /// Hand-built JPEGs: a complete EXIF block in each byte order, with and without XMP,
    /// with a padded EXIF block, with no EXIF at all, and one of 300 KB.
    @Test func builtJPEGPlansAreUnchanged() throws {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
            exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,21.1E" xmp:CreatorTool="Tester 1.0" \
            xmp:CreateDate="2020-01-02T03:04:05"/></rdf:RDF></x:xmpmeta>
            """
        var padded = TIFFBlockBuilder.complete(bigEndian: false)
        padded.paddingBeforeIFD0 = 40_000
        // Past the fingerprint's head sample and the analyzer's first read: a tail is read too.
        var large = FileAnalyzerTests.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: true).build())
        large.insert(contentsOf: (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) & 0x7F }, at: large.count - 2)
        let files: [(name: String, bytes: [UInt8])] = [
            ("big.jpg", FileAnalyzerTests.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: true).build())),
            ("little.jpg", FileAnalyzerTests.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: false).build())),
            ("xmp.jpg", FileAnalyzerTests.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: true).build(), xmp: xmp)),
            ("xmp-only.jpg", FileAnalyzerTests.jpeg(exif: nil, xmp: xmp)),
            ("plain.jpg", FileAnalyzerTests.jpeg(exif: nil)),
            ("padded.jpg", FileAnalyzerTests.jpeg(exif: padded.build())),
            ("large.jpg", large),
        ]
        let digest = try Self.digest(of: files)
        #expect(digest == "83a3a928388a65b3b3ae6eedc7325083d9cf5e47818da7c3bbaa907655972655", "digest \(digest)")
    }
}
