import PhotoCore
import TestSupport
import Testing

@testable import PhotoImaging

/// The codec doors: JPEG (with DCT-domain scaling), PNG, WebP and HEIF, on pictures made here.
@Suite struct CodecTests {
    @Test func jpegRoundTripsAndScalesInTheDCTDomain() throws {
        let picture = Fixture.quadrants(width: 800, height: 600)
        let jpeg = try JPEGCodec.encode(picture, quality: 90)
        #expect(try JPEGCodec.dimensions(of: jpeg) == (800, 600))
        let full = try JPEGCodec.decode(jpeg)
        #expect(full.width == 800 && Fixture.corners(full) == "RGBW")
        // 1/8 is the smallest scale still at least 100×75.
        let eighth = try JPEGCodec.decode(jpeg, atLeast: (100, 75), fast: true)
        #expect(eighth.width == 100 && eighth.height == 75)
        let quarter = try JPEGCodec.decode(jpeg, atLeast: (101, 75))
        #expect(quarter.width == 200 && quarter.height == 150)
        #expect(Fixture.corners(eighth) == "RGBW")
    }

    @Test func malformedJPEGIsAnError() throws {
        let jpeg = try JPEGCodec.encode(Fixture.quadrants(width: 64, height: 64), quality: 90)
        #expect(throws: ImagingError.self) { try JPEGCodec.decode(Array(jpeg.prefix(40))) }
        #expect(throws: ImagingError.self) { try JPEGCodec.decode([0xFF, 0xD8, 0xFF, 0xD9]) }
        #expect(throws: ImagingError.self) { try JPEGCodec.decode([]) }
    }

    @Test func pngRoundTripsExactlyAndCarriesOnlyItsText() throws {
        let picture = Fixture.quadrants(width: 33, height: 17)
        let png = try PNGCodec.encode(picture)
        #expect(try PNGCodec.decode(png) == picture)
        let tagged = try PNGChunks.addingText([("Thumb::URI", "file:///a%20b.jpg"), ("Thumb::MTime", "1700000000")], to: png)
        #expect(PNGChunks.text(of: tagged) == ["Thumb::URI": "file:///a%20b.jpg", "Thumb::MTime": "1700000000"])
        #expect(try PNGCodec.decode(tagged) == picture)
        // Only IHDR, the two tEXt chunks, IDAT and IEND: libpng's sRGB chunk is left out.
        #expect(chunkTypes(tagged).filter { $0 != "IDAT" } == ["IHDR", "tEXt", "tEXt", "IEND"])
    }

    @Test func pngWithAlphaKeepsIt() throws {
        let rgba = PixelImage(width: 2, height: 1, channels: 4, pixels: [1, 2, 3, 4, 250, 251, 252, 253])
        #expect(try PNGCodec.decode(PNGCodec.encode(rgba)) == rgba)
    }

    @Test func malformedPNGIsAnError() throws {
        let png = try PNGCodec.encode(Fixture.quadrants(width: 16, height: 16))
        var corrupt = png
        corrupt[20] ^= 0xFF  // inside IHDR: its CRC no longer matches
        #expect(throws: ImagingError.self) { try PNGCodec.decode(corrupt) }
        #expect(throws: ImagingError.self) { try PNGCodec.decode(Array(png.prefix(50))) }
    }

    @Test func webpFromImageMagickDecodes() throws {
        guard let convert = Fixture.tool("convert") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let source = dir + "/q.png"
        Fixture.write(try PNGCodec.encode(Fixture.quadrants(width: 64, height: 48)), to: source)
        guard try Fixture.run(convert, [source, "-quality", "95", dir + "/q.webp"]).status == 0 else {
            try Skip.because("this ImageMagick cannot write WebP")
        }
        let image = try WebPCodec.decode(Fixture.read(dir + "/q.webp"))
        #expect(image.width == 64 && image.height == 48 && Fixture.corners(image) == "RGBW")
        #expect(throws: ImagingError.self) { try WebPCodec.decode(Array(Fixture.read(dir + "/q.webp").prefix(30))) }
    }

    @Test func heicFromHeifEncDecodesWithItsThumbnail() throws {
        guard let encoder = Fixture.tool("heif-enc") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        Fixture.write(try JPEGCodec.encode(Fixture.quadrants(width: 640, height: 480), quality: 95), to: dir + "/q.jpg")
        try #require(try Fixture.run(encoder, ["-q", "90", "-t", "160", "-o", dir + "/q.heic", dir + "/q.jpg"]).status == 0)
        let heic = Fixture.read(dir + "/q.heic")
        let primary = try HEIFCodec.decode(heic)
        #expect(primary.image.width == 640 && !primary.fromThumbnail && Fixture.corners(primary.image) == "RGBW")
        // A 128 box is filled by the 160×120 thumbnail item; a 256 box is not.
        let small = try HEIFCodec.decode(heic, thumbnailBox: 128)
        #expect(small.fromThumbnail && small.image.width == 160 && Fixture.corners(small.image) == "RGBW")
        #expect(try !HEIFCodec.decode(heic, thumbnailBox: 256).fromThumbnail)
        #expect(throws: ImagingError.self) { try HEIFCodec.decode(Array(heic.prefix(heic.count / 2))) }
    }

    private func chunkTypes(_ png: [UInt8]) -> [String] {
        var types: [String] = []
        var at = 8
        while at + 8 <= png.count {
            let length = Int(png[at]) << 24 | Int(png[at + 1]) << 16 | Int(png[at + 2]) << 8 | Int(png[at + 3])
            types.append(String(decoding: png[(at + 4)..<(at + 8)], as: UTF8.self))
            at += 12 + length
        }
        return types
    }
}

/// JPEGs that libjpeg only warns about (bytes between markers) decode, as djpeg decodes them.
@Suite struct JPEGWarningTests {
    /// `jpeg` with two stray bytes before its first DQT marker ("extraneous bytes before marker").
    static func withExtraneousBytes(_ jpeg: [UInt8]) -> [UInt8] {
        var at = 2
        while at + 4 <= jpeg.count, !(jpeg[at] == 0xFF && jpeg[at + 1] == 0xDB) {
            at += 2 + (Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3]))
        }
        return Array(jpeg[..<at]) + [0x12, 0x34] + jpeg[at...]
    }

    @Test func extraneousBytesBeforeAMarkerStillDecode() throws {
        let damaged = Self.withExtraneousBytes(try Fixture.jpeg(Fixture.quadrants(width: 320, height: 240)))
        if let djpeg = Fixture.tool("djpeg") {
            let dir = Fixture.directory()
            defer { Fixture.remove(dir) }
            Fixture.write(damaged, to: dir + "/warn.jpg")
            let reading = try Fixture.run("/bin/sh", ["-c", "'\(djpeg)' '\(dir)/warn.jpg' 2>&1 >/dev/null"])
            #expect(reading.output.contains("extraneous bytes before marker"), "\(reading.output)")
        }
        #expect(try JPEGCodec.dimensions(of: damaged) == (320, 240))
        #expect(Fixture.corners(try JPEGCodec.decode(damaged)) == "RGBW")
        let thumbnail = try Thumbnailer.render(bytes: damaged, box: 128)
        #expect(Fixture.corners(thumbnail.image) == "RGBW")
        #expect(thumbnail.image.width == 128)
    }
}
