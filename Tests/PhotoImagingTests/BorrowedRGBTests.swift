import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoImaging

/// The transcode's decode into libheif's own planes (no copy into a `PixelImage`) gives the
/// very pixels and the very JPEG the copying decode gives, for HEICs made here (odd sizes
/// too) and for the phone HEICs of the shared corpus; a picture with alpha is left to the
/// copying decode, which composes it over white.
@Suite struct BorrowedRGBTests {
    @Test func borrowedDecodeMatchesTheCopyingDecodeByteForByte() throws {
        for (name, bytes) in try Fixture.heics(prefix: "q", of: { Fixture.quadrants(width: $0, height: $1) }) {
            let copied = try HEIFCodec.decode(bytes).image
            let borrowed = try #require(
                try HEIFCodec.withRGB(bytes, threads: 2) { rgb throws(ImagingError) in
                    (rgb.width, rgb.height, Self.packed(rgb), try JPEGCodec.encode(rgb, quality: 80))
                })
            #expect(borrowed.0 == copied.width && borrowed.1 == copied.height, "\(name)")
            #expect(borrowed.2 == copied.pixels, "\(name): pixels differ")
            #expect(borrowed.3 == (try JPEGCodec.encode(copied, quality: 80)), "\(name): JPEG differs")
        }
    }

    @Test func alphaIsLeftToTheCopyingDecodeAndComposedOverWhite() throws {
        guard let encoder = Fixture.tool("heif-enc") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        // Opaque red on the left half, fully transparent on the right.
        var pixels = [UInt8](repeating: 0, count: 64 * 48 * 4)
        for y in 0..<48 {
            for x in 0..<32 { pixels.replaceSubrange((y * 64 + x) * 4..<(y * 64 + x) * 4 + 4, with: [255, 0, 0, 255]) }
        }
        Fixture.write(try PNGCodec.encode(PixelImage(width: 64, height: 48, channels: 4, pixels: pixels)), to: dir + "/a.png")
        try #require(try Fixture.run(encoder, ["-q", "90", "-o", dir + "/a.heic", dir + "/a.png"]).status == 0)
        let heic = Fixture.read(dir + "/a.heic")
        #expect(try HEIFCodec.withRGB(heic, threads: 1) { _ throws(ImagingError) in true } == nil)
        let image = try JPEGCodec.decode(try CompatibleJPEG.transcode(bytes: heic, quality: 95, location: .strip))
        let left = Fixture.pixel(image, 8, 24)
        let right = Fixture.pixel(image, 56, 24)
        #expect(left[0] > 200 && left[1] < 60 && left[2] < 60, "\(left)")
        #expect(right.allSatisfy { $0 > 220 }, "\(right)")
    }

    /// The rows without their padding.
    private static func packed(_ rgb: BorrowedRGB) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(rgb.width * rgb.height * 3)
        for y in 0..<rgb.height {
            out.append(contentsOf: UnsafeBufferPointer(start: rgb.rows + y * rgb.stride, count: rgb.width * 3))
        }
        return out
    }
}
