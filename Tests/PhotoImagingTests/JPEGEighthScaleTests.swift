import Foundation
import TestSupport
import Testing

@testable import PhotoImaging

/// The 1/8 decoder gives libjpeg-turbo's 1/8 pixels for every kind of sequential JPEG
/// cameras write (exactly, or within 2 levels where chroma subsampled 2x both ways gets
/// quarter means, which the two compute in different fixed point), and leaves the rest
/// (progressive, arithmetic, damaged) to libjpeg-turbo.
@Suite struct JPEGEighthScaleTests {
    /// A photo-like picture (smooth gradients under fine noise) of an awkward size, so that
    /// blocks are partly outside the picture and the codes are not all short.
    static func photo(width: Int, height: Int) -> PixelImage {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        var state: UInt32 = 12345
        for y in 0..<height {
            for x in 0..<width {
                state = state &* 1_664_525 &+ 1_013_904_223
                let noise = Int(state >> 27) - 16
                let q = (y * width + x) * 3
                pixels[q] = UInt8(clamping: x * 255 / width + noise)
                pixels[q + 1] = UInt8(clamping: y * 255 / height - noise)
                pixels[q + 2] = UInt8(clamping: (x + y) * 128 / (width + height) + 60 + noise * 2)
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: pixels)
    }

    /// libjpeg-turbo's own 1/8 decode of `jpeg`.
    static func reference(_ jpeg: [UInt8]) throws -> PixelImage {
        let size = try JPEGCodec.dimensions(of: jpeg)
        return try JPEGCodec.decode(jpeg, atLeast: ((size.width + 7) / 8, (size.height + 7) / 8), fast: true, dcOnly: false)
    }

    /// Whether `a` and `b` have the same size and no sample differs by more than 2.
    static func close(_ a: PixelImage, _ b: PixelImage) -> Bool {
        a.width == b.width && a.height == b.height && a.channels == b.channels
            && zip(a.pixels, b.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 2 }
    }

    @Test func turboJPEGEncodingGivesLibjpegsPixels() throws {
        for (width, height) in [(203, 157), (640, 480), (17, 9), (8, 8)] {
            let jpeg = try JPEGCodec.encode(Self.photo(width: width, height: height), quality: 90)
            let decoded = try #require(JPEGEighthScale.decode(jpeg))
            #expect(Self.close(decoded, try Self.reference(jpeg)), "\(width)x\(height)")
        }
    }

    @Test func everySequentialLayoutCjpegWritesGivesLibjpegsPixels() throws {
        guard let cjpeg = Fixture.tool("cjpeg") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let picture = Self.photo(width: 333, height: 251)
        Fixture.write(Array("P6\n\(picture.width) \(picture.height)\n255\n".utf8) + picture.pixels, to: dir + "/p.ppm")
        // Each component in a scan of its own, still sequential (baseline).
        try "0;\n1;\n2;\n".write(toFile: dir + "/separate.scans", atomically: true, encoding: .utf8)
        let layouts: [[String]] = [
            ["-sample", "2x2"], ["-sample", "2x1"], ["-sample", "1x2"], ["-sample", "1x1"], ["-sample", "4x1"],
            ["-grayscale"], ["-restart", "1"], ["-restart", "7B"], ["-restart", "1B", "-sample", "1x1"], ["-optimize"],
            ["-quality", "100"], ["-quality", "5"], ["-scans", dir + "/separate.scans"],
            ["-scans", dir + "/separate.scans", "-restart", "3B"],
        ]
        for options in layouts {
            let out = dir + "/out.jpg"
            try #require(try Fixture.run(cjpeg, options + ["-outfile", out, dir + "/p.ppm"]).status == 0, "\(options)")
            let jpeg = Fixture.read(out)
            let decoded = try #require(JPEGEighthScale.decode(jpeg), "\(options)")
            let reference = try Self.reference(jpeg)
            #expect(Self.close(decoded, reference), "\(options)")
            // Without 2x2 chroma subsampling every sample is the same as libjpeg-turbo's.
            if options.contains("-grayscale") || options.contains("1x1") || options.contains("2x1") || options.contains("1x2")
                || options.contains("4x1")
            {
                #expect(decoded == reference, "\(options)")
            }
        }
        // Progressive and arithmetic-coded files are libjpeg-turbo's to decode.
        for options in [["-progressive"], ["-arithmetic"]] {
            let out = dir + "/out.jpg"
            try #require(try Fixture.run(cjpeg, options + ["-outfile", out, dir + "/p.ppm"]).status == 0)
            #expect(JPEGEighthScale.decode(Fixture.read(out)) == nil, "\(options)")
            #expect(try JPEGCodec.decode(Fixture.read(out), atLeast: (42, 32), fast: true) == (try Self.reference(Fixture.read(out))))
        }
    }

    @Test func damagedScansAreLeftToLibjpeg() throws {
        let jpeg = try JPEGCodec.encode(Self.photo(width: 320, height: 240), quality: 90)
        // Cut short: libjpeg-turbo fills the rest and warns; the DC decoder declines.
        let cut = Array(jpeg.prefix(jpeg.count / 2))
        #expect(JPEGEighthScale.decode(cut) == nil)
        #expect(try JPEGCodec.decode(cut, atLeast: (40, 30), fast: true).width == 40)
        // No end of image marker after a complete scan.
        #expect(JPEGEighthScale.decode(Array(jpeg.dropLast(2))) == nil)
        // Bytes flipped all over the file: an image or nil, never a crash.
        var state: UInt32 = 99
        for _ in 0..<200 {
            var damaged = jpeg
            for _ in 0..<4 {
                state = state &* 1_664_525 &+ 1_013_904_223
                damaged[Int(state >> 8) % damaged.count] ^= UInt8(truncatingIfNeeded: state)
            }
            if let image = JPEGEighthScale.decode(damaged) {
                #expect(image.pixels.count == image.width * image.height * 3)
            }
        }
        // A frame claiming 65,535 × 65,535 pixels over a few bytes of scan is turned away early.
        var huge = jpeg
        let sof = try #require((0..<(huge.count - 9)).first { huge[$0] == 0xFF && huge[$0 + 1] == 0xC0 })
        huge.replaceSubrange((sof + 5)..<(sof + 9), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(JPEGEighthScale.decode(huge) == nil)
    }
}
