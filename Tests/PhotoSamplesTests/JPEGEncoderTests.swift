import Foundation
import MediaFormats
import TestSupport
import Testing

@testable import PhotoSamples

/// The encoder's files decode in PIL (libjpeg) without warnings, to pixels close to the
/// source, and its tables are the standard ones.
@Suite struct JPEGEncoderTests {
    @Test func huffmanTablesCoverEveryACSymbolOnce() {
        var expected: Set<UInt8> = [0x00, 0xF0]
        for run in 0..<16 { for size in 1...10 { expected.insert(UInt8(run << 4 | size)) } }
        for spec in [JPEGTables.acLuminance, JPEGTables.acChrominance] {
            #expect(spec.counts.reduce(0) { $0 + Int($1) } == spec.symbols.count)
            #expect(Set(spec.symbols) == expected && spec.symbols.count == 162)
        }
    }

    @Test func zigZagVisitsEveryCoefficientInScanOrder() {
        #expect(Set(JPEGTables.zigZag) == Set(0..<64))
        #expect(Array(JPEGTables.zigZag.prefix(10)) == [0, 1, 8, 16, 9, 2, 3, 10, 17, 24])
        #expect(JPEGTables.zigZag.last == 63)
    }

    @Test func fileHasTheExpectedSegmentsInOrder() throws {
        let exif = ExifBuilder().build(ExifFields(make: "Canon")).bytes
        let jpeg = try JPEGEncoder().encode(
            ProceduralPicture.draw(seed: 3, width: 20, height: 10), metadata: JPEGMetadata(jfif: true, exif: exif, xmp: "<x/>"))
        var markers: [UInt8] = []
        var at = 2
        #expect(jpeg.prefix(2) == [0xFF, 0xD8])
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF {
            markers.append(jpeg[at + 1])
            if jpeg[at + 1] == 0xDA { break }
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        #expect(markers == [0xE0, 0xE1, 0xE1, 0xDB, 0xC0, 0xC4, 0xDA])
        #expect(jpeg.suffix(2) == [0xFF, 0xD9])
    }

    @Test func refusesImpossibleInput() {
        #expect(throws: JPEGEncoderError.badImageSize(width: 0, height: 5)) {
            try JPEGEncoder().encode(RGBImage(width: 0, height: 5))
        }
        #expect(throws: JPEGEncoderError.segmentTooLarge(marker: 0xE1, size: 70_006)) {
            try JPEGEncoder().encode(RGBImage(width: 8, height: 8), metadata: JPEGMetadata(exif: [UInt8](repeating: 0, count: 70_000)))
        }
    }

    static let shapes: [(Int, Int, JPEGEncoder.Subsampling)] = [
        (160, 120, .yuv420), (17, 9, .yuv420), (1, 1, .yuv420), (33, 47, .yuv444), (480, 120, .yuv444),
    ]

    @Test(
        .enabled(if: ExternalTools.pythonWithPIL != nil, "no python3 with PIL (apt-get install python3-pil)"),
        arguments: shapes)
    func pilDecodesWithoutWarningsToNearlyTheSamePixels(width: Int, height: Int, subsampling: JPEGEncoder.Subsampling) throws {
        let image = ProceduralPicture.draw(seed: UInt64(width * 1000 + height), width: width, height: height)
        let jpeg = try JPEGEncoder(quality: 90, subsampling: subsampling).encode(image)
        let directory = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let jpegPath = directory.appendingPathComponent("p.jpg").path
        let rawPath = directory.appendingPathComponent("p.rgb").path
        try Data(jpeg).write(to: URL(fileURLWithPath: jpegPath))
        try Data(image.pixels).write(to: URL(fileURLWithPath: rawPath))
        // Mean absolute error per channel of our file and, as the yardstick, of PIL's own
        // encoder at the same quality and subsampling on the same pixels.
        let script = """
            import sys, io, warnings
            warnings.simplefilter("error")
            from PIL import Image
            im = Image.open(sys.argv[1]); im.load()
            with open(sys.argv[2], "rb") as f: src = f.read()
            ref = Image.frombytes("RGB", im.size, src)
            buf = io.BytesIO(); ref.save(buf, "JPEG", quality=90, subsampling=int(sys.argv[3])); buf.seek(0)
            err = lambda d: sum(abs(a - b) for a, b in zip(src, d)) / len(src)
            print(im.format, im.size[0], im.size[1], err(im.convert("RGB").tobytes()), err(Image.open(buf).convert("RGB").tobytes()))
            """
        let pilSubsampling = subsampling == .yuv420 ? "2" : "0"
        let result = try ExternalTools.run(try #require(ExternalTools.pythonWithPIL), ["-c", script, jpegPath, rawPath, pilSubsampling])
        #expect(result.status == 0, "PIL failed: \(result.stderr)")
        #expect(result.stderr.isEmpty, "PIL said: \(result.stderr)")
        let parts = result.stdout.split(whereSeparator: { $0 == " " || $0 == "\n" })
        try #require(parts.count == 5)
        #expect(parts[0] == "JPEG" && Int(parts[1]) == width && Int(parts[2]) == height)
        let ours = try #require(Double(parts[3]))
        let theirs = try #require(Double(parts[4]))
        // A wrong DCT, table or padding shows as an error many times libjpeg's own.
        #expect(ours <= theirs * 1.25 + 0.5, "mean error \(ours), libjpeg's \(theirs)")
    }
}
