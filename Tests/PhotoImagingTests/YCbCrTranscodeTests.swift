import Foundation
import TestSupport
import Testing

@testable import PhotoImaging

/// The transcode's YCbCr path (the HEVC decoder's planes straight into the JPEG encoder)
/// gives the picture the RGB path through libheif gives: same size and orientation, pixels
/// within a few levels, for HEICs made here (odd sizes too) and the phone HEICs of the shared
/// corpus (grid images), also turned by each `irot` angle. A picture with alpha or in limited
/// range is left to the RGB path.
@Suite struct YCbCrTranscodeTests {
    @Test func yCbCrPictureMatchesTheRGBPicture() throws {
        for (name, bytes) in try Fixture.heics(prefix: "g", of: { Self.gradient(width: $0, height: $1) }) {
            let picture = try #require(try HEIFCodec.primaryYCbCr(bytes, threads: 2), "\(name): not taken")
            try Self.expectClose(picture, to: try HEIFCodec.decode(bytes).image, name)
        }
    }

    @Test func everyRotationMatchesLibheif() throws {
        // Odd sides are left to libheif when turned, so take one with even sides.
        let even = try Fixture.phoneHEICs().first { _, bytes in
            (try? HEIFCodec.primaryYCbCr(bytes, threads: 2)).flatMap { $0 }.map { $0.width % 2 == 0 && $0.height % 2 == 0 } == true
        }
        guard let (name, bytes) = even, let at = Self.rotationByte(bytes) else {
            try Skip.because("no phone HEIC with an irot property in the shared corpus")
        }
        for turns in 0..<4 {
            var turned = bytes
            turned[at] = UInt8(turns)
            let picture = try #require(try HEIFCodec.primaryYCbCr(turned, threads: 2), "\(name) irot \(turns)")
            try Self.expectClose(picture, to: try HEIFCodec.decode(turned).image, "\(name) irot \(turns)")
        }
    }

    @Test func rotatingMovesEverySampleCounterClockwise() {
        // Luma 4 × 2 with values 0...7 row by row; chroma 2 × 1.
        var planes = YCbCrPlanes(width: 4, height: 2)
        planes.luma = [0, 1, 2, 3, 4, 5, 6, 7]
        planes.cb = [10, 11]
        planes.cr = [20, 21]
        let quarter = planes.rotatedCounterClockwise(1)
        #expect(quarter.width == 2 && quarter.height == 4)
        #expect(quarter.luma == [3, 7, 2, 6, 1, 5, 0, 4])
        #expect(quarter.cb == [11, 10] && quarter.cr == [21, 20])
        let half = planes.rotatedCounterClockwise(2)
        #expect(half.luma == [7, 6, 5, 4, 3, 2, 1, 0] && half.cb == [11, 10])
        let threeQuarters = planes.rotatedCounterClockwise(3)
        #expect(threeQuarters.luma == [4, 0, 5, 1, 6, 2, 7, 3] && threeQuarters.cb == [10, 11])
        #expect(planes.rotatedCounterClockwise(4).luma == planes.luma)
    }

    @Test func alphaIsLeftToLibheif() throws {
        guard let encoder = Fixture.tool("heif-enc") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        var pixels = [UInt8](repeating: 255, count: 64 * 48 * 4)
        for index in stride(from: 3, to: pixels.count, by: 8) { pixels[index] = 0 }
        Fixture.write(try PNGCodec.encode(PixelImage(width: 64, height: 48, channels: 4, pixels: pixels)), to: dir + "/a.png")
        try #require(try Fixture.run(encoder, ["-q", "90", "-o", dir + "/a.heic", dir + "/a.png"]).status == 0)
        #expect(try HEIFCodec.primaryYCbCr(Fixture.read(dir + "/a.heic"), threads: 1) == nil)
    }

    /// libheif's own example HEIC says (in its stream) that its YCbCr is limited range: a
    /// JPEG's is full range, so it goes through libheif's RGB as before.
    @Test func limitedRangeIsLeftToLibheif() throws {
        guard let corpus = Corpus.directory else { try Skip.because("no shared corpus") }
        let heic = Fixture.read(corpus + "/libheif/example.heic")
        try #require(!heic.isEmpty)
        #expect(try HEIFCodec.primaryYCbCr(heic, threads: 1) == nil)
        let transcoded = try JPEGCodec.decode(try CompatibleJPEG.transcode(bytes: heic, quality: 95, location: .strip))
        let throughRGB = try JPEGCodec.decode(try JPEGCodec.encode(try HEIFCodec.decode(heic).image, quality: 95))
        #expect(transcoded.width == throughRGB.width && transcoded.height == throughRGB.height)
        #expect(transcoded.pixels == throughRGB.pixels)
    }

    /// Encodes `picture` at quality 95 and checks the JPEG's pixels against `reference`.
    private static func expectClose(_ picture: YCbCrPlanes, to reference: PixelImage, _ name: String) throws {
        let decoded = try JPEGCodec.decode(try JPEGCodec.encode(picture, quality: 95))
        try expectClose(decoded, to: reference, name)
    }

    /// Same size, mean difference under 1.5 levels, and under 0.5 % of the samples off by
    /// more than 24 (chroma upsampling differs at sharp colour edges).
    private static func expectClose(_ image: PixelImage, to reference: PixelImage, _ name: String) throws {
        try #require(image.width == reference.width && image.height == reference.height, "\(name): size")
        let expected = reference.flattened().pixels
        var total = 0
        var far = 0
        for (a, b) in zip(image.pixels, expected) {
            let difference = abs(Int(a) - Int(b))
            total += difference
            if difference > 24 { far += 1 }
        }
        let mean = Double(total) / Double(expected.count)
        #expect(mean < 1.5, "\(name): mean difference \(mean)")
        #expect(Double(far) < 0.005 * Double(expected.count), "\(name): \(far) samples far off")
    }

    /// A picture whose colour changes along both axes, so chroma matters.
    private static func gradient(width: Int, height: Int) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 3
                pixels[at] = UInt8(x * 255 / max(1, width - 1))
                pixels[at + 1] = UInt8(y * 255 / max(1, height - 1))
                pixels[at + 2] = UInt8((x + y) * 127 / max(1, width + height - 2) + 64)
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// Where the angle byte of the file's `irot` property box (9 bytes) is, if it has one.
    private static func rotationByte(_ bytes: [UInt8]) -> Int? {
        let pattern: [UInt8] = [0, 0, 0, 9] + Array("irot".utf8)
        guard bytes.count > pattern.count else { return nil }
        return (0..<(min(bytes.count, 1 << 20) - pattern.count)).first { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
            .map { $0 + pattern.count }
    }
}
