import Foundation
import Glibc
import MediaFormats
import PhotoCore
import PhotoHashing
import PhotoSamples
import SystemKit
import Testing

@testable import PhotoMetadata

/// `FileAnalyzer` on small JPEGs built in code.
@Suite struct FileAnalyzerTests {
    /// SOI, optional APP1 segments, SOF0 (width × height), SOS with a few bytes, EOI.
    static func jpeg(exif: [UInt8]?, xmp: String? = nil, width: UInt16 = 320, height: UInt16 = 200) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            let length = payload.count + 2
            return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        var bytes: [UInt8] = [0xFF, 0xD8]
        if let exif { bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + exif) }
        if let xmp { bytes += segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8)) }
        bytes += segment(0xC0, [8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 1, 1, 0x11, 0])
        bytes += segment(0xDA, [1, 1, 0, 0, 0x3F, 0])
        bytes += [0x12, 0x34, 0x56, 0xFF, 0xD9]
        return bytes
    }

    @Test func analysesAJPEGWithEXIF() throws {
        let directory = try TemporaryDirectory()
        let bytes = Self.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: true).build())
        let path = try directory.write(name: Array("IMG_0001.JPG".utf8), bytes: bytes)
        let analysis = try FileAnalyzer().analyze(absolutePath: path)
        let m = analysis.metadata
        #expect(m.format == .jpeg)
        #expect(m.hasExif)
        #expect(m.make == "Canon" && m.model == "EOS 40D" && m.lens == "EF-S17-85mm f/4-5.6 IS USM")
        #expect(m.captureDate?.description == "2019-09-09 14:49:29+09:30" && m.dateSource == .dateTimeOriginal)
        #expect(m.orientation == 6)
        // The SOF says 320×200; EXIF claims 3888×2592 (a stale PixelXDimension): the decoder's size wins.
        #expect(m.width == 320 && m.height == 200)
        #expect(m.location != nil)
        #expect(m.saysScreenshot)
        #expect(analysis.fingerprint == AssetFingerprint(of: bytes).hex)
        // The file has GPS: the strip plan must change bytes, never serve the original.
        guard case .patches(let patches) = analysis.redaction.strip else {
            Issue.record("strip plan is \(analysis.redaction.strip)")
            return
        }
        #expect(!patches.isEmpty)
    }

    @Test func renamedOrMovedFilesKeepTheirFingerprint() throws {
        let directory = try TemporaryDirectory()
        let bytes = Self.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: false).build())
        let first = try directory.write(name: Array("a.jpg".utf8), bytes: bytes)
        let second = try directory.write(name: [0x62, 0xFF, 0x2E, 0x6A, 0x70, 0x67], bytes: bytes)
        var changed = bytes
        changed[changed.count - 3] ^= 1
        let third = try directory.write(name: Array("c.jpg".utf8), bytes: changed)
        let analyzer = FileAnalyzer()
        let a = try analyzer.analyze(absolutePath: first).fingerprint
        #expect(try analyzer.analyze(absolutePath: second).fingerprint == a)
        #expect(try analyzer.analyze(absolutePath: third).fingerprint != a)
    }

    @Test func xmpDateWhenEXIFHasNone() throws {
        let directory = try TemporaryDirectory()
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
            <rdf:Description xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmp:CreateDate="2021-07-04T18:30:15.25+02:00"/>
            </rdf:RDF></x:xmpmeta>
            """
        let path = try directory.write(name: Array("x.jpg".utf8), bytes: Self.jpeg(exif: nil, xmp: xmp))
        let m = try FileAnalyzer().analyze(absolutePath: path).metadata
        #expect(!m.hasExif)
        #expect(m.captureDate?.description == "2021-07-04 18:30:15+02:00")
        #expect(m.dateSource == .xmp)
    }

    @Test func noDateMeansFileModification() throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write(name: Array("n.jpg".utf8), bytes: Self.jpeg(exif: nil))
        let m = try FileAnalyzer().analyze(absolutePath: path).metadata
        #expect(m.captureDate == nil && m.dateSource == .fileModification)
        #expect(m.width == 320)
    }

    @Test func aBrokenFirstEXIFBlockFallsBackToTheNext() throws {
        let directory = try TemporaryDirectory()
        // An APP1 Exif segment whose TIFF header points IFD0 out of the block, then a good one.
        let broken: [UInt8] = [0x49, 0x49, 0x2A, 0x00, 0xF0, 0xFF, 0, 0, 0, 0, 0, 0]
        var bytes = Self.jpeg(exif: broken)
        let good = Self.jpeg(exif: TIFFBlockBuilder.complete(bigEndian: false).build())
        // Splice the good APP1 segment in after the broken one (both before SOF).
        let brokenEnd = 2 + 4 + 6 + broken.count
        let goodSegment = Array(good[2..<(2 + 4 + 6 + TIFFBlockBuilder.complete(bigEndian: false).build().count)])
        bytes.insert(contentsOf: goodSegment, at: brokenEnd)
        let path = try directory.write(name: Array("b.jpg".utf8), bytes: bytes)
        let m = try FileAnalyzer().analyze(absolutePath: path).metadata
        #expect(m.hasExif)
        #expect(m.make == "Canon")
        #expect(m.problems.contains { $0.contains("EXIF block") })

        let alone = try directory.write(name: Array("c.jpg".utf8), bytes: Self.jpeg(exif: broken))
        let explained = try FileAnalyzer().analyze(absolutePath: alone).metadata
        #expect(!explained.hasExif)
        #expect(explained.problems.contains { $0.contains("EXIF block") })
    }

    @Test func refusesWhatIsNotMedia() throws {
        let directory = try TemporaryDirectory()
        let text = try directory.write(name: Array("notes.jpg".utf8), bytes: Array("just some text\n".utf8))
        #expect(throws: AnalysisError.notMedia) { try FileAnalyzer().analyze(absolutePath: text) }
        let bmp = try directory.write(name: Array("a.bmp".utf8), bytes: [0x42, 0x4D] + [UInt8](repeating: 0, count: 60))
        #expect(throws: AnalysisError.notMedia) { try FileAnalyzer().analyze(absolutePath: bmp) }
        #expect(throws: AnalysisError.unreadable(errno: .noSuchFileOrDirectory)) {
            try FileAnalyzer().analyze(absolutePath: directory.path + Array("/missing.jpg".utf8))
        }
    }

    /// The fingerprint read from a file (head and tail samples, at sizes around the sample
    /// and head-read boundaries) equals the one computed from its bytes in memory, and the
    /// whole-file digest equals `sha256sum`'s.
    @Test(arguments: [0, 1, 65_535, 65_536, 65_537, 131_072, 131_073, 200_000, 2 * 1_048_576 + 12_345])
    func fingerprintOfAFileEqualsTheInMemoryOne(size: Int) throws {
        let directory = try TemporaryDirectory()
        var generator = SeededRandom(seed: 42)
        let bytes = (0..<size).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let path = try directory.write(name: Array("big".utf8), bytes: bytes)
        let fingerprint = try FileAnalyzer.fingerprint(FileByteSource(path: path))
        #expect(fingerprint == AssetFingerprint(of: bytes))
        #expect(try FileDigest.sha256Hex(path: path) == SHA256.hex(SHA256.hash(bytes)))
    }
}
