import Foundation
import Glibc
import MediaFormats
import PhotoSamples
import TestSupport
import Testing

@testable import PhotoImaging

/// JPEG XL through libjxl: files made by `cjxl` (libjxl-tools) decode to the pixels `djxl`
/// gives, lossless ones to the exact source pixels; a JPEG recompressed into JPEG XL keeps
/// its EXIF into the compatible JPEG (location handled by the policy); thumbnails fit the
/// box; broken files are errors.
@Suite struct JXLCodecTests {
    static func tools() throws -> (cjxl: String, djxl: String) {
        guard let cjxl = Fixture.tool("cjxl"), let djxl = Fixture.tool("djxl") else {
            try Skip.because("cjxl/djxl (libjxl-tools) are not installed")
        }
        return (cjxl, djxl)
    }

    @Test func losslessDecodesExactlyAndLossyAsDjxlDoes() throws {
        let (cjxl, djxl) = try Self.tools()
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let picture = Fixture.quadrants(width: 320, height: 240)
        Fixture.write(try PNGCodec.encode(picture), to: dir + "/q.png")
        try #require(try Fixture.run(cjxl, [dir + "/q.png", dir + "/lossless.jxl", "-d", "0"]).status == 0)
        try #require(try Fixture.run(cjxl, [dir + "/q.png", dir + "/lossy.jxl", "-d", "1.5"]).status == 0)
        let lossless = Fixture.read(dir + "/lossless.jxl")
        #expect(MediaSniffer.format(of: MemoryByteSource(lossless)) == .jxl)
        #expect(try JXLCodec.decode(lossless) == picture)

        try #require(try Fixture.run(djxl, [dir + "/lossy.jxl", dir + "/reference.png"]).status == 0)
        let ours = try JXLCodec.decode(Fixture.read(dir + "/lossy.jxl"))
        let theirs = try PNGCodec.decode(Fixture.read(dir + "/reference.png"))
        #expect(ours.width == 320 && ours.height == 240 && Fixture.corners(ours) == "RGBW")
        let difference = zip(ours.pixels, theirs.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 255
        #expect(ours.pixels.count == theirs.pixels.count && difference <= 2, "largest difference from djxl: \(difference)")

        let thumbnail = try Thumbnailer.render(bytes: lossless, box: 128)
        #expect(thumbnail.image.width == 128 && thumbnail.image.height == 96 && thumbnail.origin == .decoded)
    }

    @Test func recompressedJPEGKeepsItsEXIFInTheCompatibleJPEG() throws {
        let (cjxl, _) = try Self.tools()
        guard Fixture.tool("exiftool") != nil else { try Skip.because("exiftool is not installed") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let fields = ExifFields(
            make: "Canon", model: "EOS R5", orientation: 1,
            taken: CaptureDate(year: 2024, month: 6, day: 1, hour: 10, minute: 0, second: 0),
            location: GeoLocation(latitude: 48.8584, longitude: 2.2945))
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 320, height: 240), exif: fields), to: dir + "/q.jpg")
        try #require(try Fixture.run(cjxl, [dir + "/q.jpg", dir + "/q.jxl"]).status == 0)
        let jxl = Fixture.read(dir + "/q.jxl")
        #expect(JXLCodec.exif(jxl) != nil)
        Fixture.write(try CompatibleJPEG.transcode(bytes: jxl, quality: 80, location: .strip), to: dir + "/strip.jpg")
        let strip = try CompatibleJPEGTests.tags(dir + "/strip.jpg")
        #expect(strip["File:FileType"] == "JPEG")
        #expect(strip["IFD0:Make"] == "Canon" && strip["IFD0:Model"] == "EOS R5")
        #expect(strip["IFD0:ModifyDate"] == "2024:06:01 10:00:00")
        #expect(strip.keys.filter { $0.hasPrefix("GPS:") && $0 != "GPS:GPSVersionID" }.isEmpty)
        #expect(Fixture.corners(try JPEGCodec.decode(Fixture.read(dir + "/strip.jpg"))) == "RGBW")
        Fixture.write(try CompatibleJPEG.transcode(bytes: jxl, quality: 80, location: .keep), to: dir + "/keep.jpg")
        #expect(Double(try CompatibleJPEGTests.tags(dir + "/keep.jpg")["GPS:GPSLatitude"] ?? "") ?? 0 > 48.8)
    }

    @Test func brokenFilesAreErrors() throws {
        let (cjxl, _) = try Self.tools()
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        Fixture.write(try PNGCodec.encode(Fixture.quadrants(width: 64, height: 48)), to: dir + "/q.png")
        try #require(try Fixture.run(cjxl, [dir + "/q.png", dir + "/q.jxl", "-d", "1"]).status == 0)
        let whole = Fixture.read(dir + "/q.jxl")
        for cut in [2, 12, whole.count / 2, whole.count - 1] {
            #expect(throws: ImagingError.self) { try JXLCodec.decode(Array(whole.prefix(cut))) }
        }
        var flipped = whole
        for index in stride(from: 8, to: flipped.count, by: 3) { flipped[index] ^= 0x5A }
        #expect(throws: ImagingError.self) { try JXLCodec.decode(flipped) }
        #expect(throws: ImagingError.self) { try JXLCodec.decode([0xFF, 0x0A]) }
    }
}
