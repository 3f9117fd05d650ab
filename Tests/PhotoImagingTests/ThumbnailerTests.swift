import MediaFormats
import PhotoCore
import PhotoSamples
import TestSupport
import Testing

@testable import PhotoImaging

/// One thumbnail at a time, in this process: which picture is used, orientation, size, errors.
@Suite struct ThumbnailerTests {
    @Test func jpegThumbnailIsUprightAndFitsTheBox() throws {
        let jpeg = try Fixture.jpeg(Fixture.quadrants(width: 800, height: 600), exif: ExifFields(make: "Canon", orientation: 6))
        let rendered = try Thumbnailer.render(bytes: jpeg, box: 256)
        #expect(rendered.origin == .decoded)
        #expect(rendered.image.width == 192 && rendered.image.height == 256)
        #expect(Fixture.corners(rendered.image) == "WRGB")
    }

    @Test func smallPicturesAreNotEnlarged() throws {
        let jpeg = try Fixture.jpeg(Fixture.quadrants(width: 90, height: 60))
        let rendered = try Thumbnailer.render(bytes: jpeg, box: 512)
        #expect(rendered.image.width == 90 && rendered.image.height == 60)
    }

    @Test func exifThumbnailIsUsedWhenItFillsTheBox() throws {
        guard let exiftool = Fixture.tool("exiftool") else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        // The main picture reads R G B W; the embedded one is upside down (B W R G), so the
        // corners tell which one a thumbnail was made from.
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 640, height: 480), exif: ExifFields(make: "Canon")), to: dir + "/main.jpg")
        Fixture.write(try JPEGCodec.encode(Fixture.quadrants(width: 160, height: 120).oriented(3), quality: 90), to: dir + "/thumb.jpg")
        Fixture.write(try JPEGCodec.encode(Fixture.quadrants(width: 160, height: 160), quality: 90), to: dir + "/square.jpg")
        try #require(
            try Fixture.run(exiftool, ["-q", "-overwrite_original", "-ThumbnailImage<=\(dir)/thumb.jpg", dir + "/main.jpg"]).status == 0)
        let main = Fixture.read(dir + "/main.jpg")
        let normal = try Thumbnailer.render(bytes: main, box: 128)
        #expect(normal.origin == .exifThumbnail && Fixture.corners(normal.image) == "BWRG")
        #expect(normal.image.width == 128 && normal.image.height == 96)
        let large = try Thumbnailer.render(bytes: main, box: 256)
        #expect(large.origin == .decoded && Fixture.corners(large.image) == "RGBW")
        // A thumbnail of another shape (square for a 4:3 photo) is not used.
        try #require(
            try Fixture.run(exiftool, ["-q", "-overwrite_original", "-ThumbnailImage<=\(dir)/square.jpg", dir + "/main.jpg"]).status == 0)
        #expect(try Thumbnailer.render(bytes: Fixture.read(dir + "/main.jpg"), box: 128).origin == .decoded)
    }

    @Test func videoGetsAPlaceholderWithItsDuration() throws {
        let movie = Self.movie(timescale: 600, duration: 600 * 83)
        #expect(MovieDuration.seconds(of: MemoryByteSource(movie)) == 83)
        let rendered = try Thumbnailer.render(bytes: movie, box: 256)
        #expect(rendered.origin == .videoPlaceholder)
        #expect(max(rendered.image.width, rendered.image.height) == 256)
        // The duration is drawn in white; an unknown duration draws no digits.
        let white = stride(from: 0, to: rendered.image.pixels.count, by: 3).filter { rendered.image.pixels[$0] == 255 }.count
        let blank = VideoPlaceholder.image(box: 256, videoWidth: nil, videoHeight: nil, seconds: nil)
        let blankWhite = stride(from: 0, to: blank.pixels.count, by: 3).filter { blank.pixels[$0] == 255 }.count
        #expect(white > blankWhite)
        #expect(MovieDuration.seconds(of: MemoryByteSource(Array(movie.prefix(30)))) == nil)
    }

    @Test func badInputIsAnErrorNotACrash() {
        #expect(throws: ImagingError.self) {
            try Thumbnailer.render(bytes: [0xFF, 0xD8, 0xFF, 0xE0, 0, 16] + [UInt8](repeating: 7, count: 100), box: 128)
        }
        // A GIF cut off after its signature: giflib's refusal, not a missing decoder.
        #expect {
            try Thumbnailer.render(bytes: Array("GIF89a".utf8) + [0, 0, 0, 0], box: 128)
        } throws: { error in
            guard case .malformed(let why) = error as? ImagingError else { return false }
            return why.hasPrefix("GIF: ")
        }
        #expect(throws: ImagingError.unsupportedFormat("this file type")) { try Thumbnailer.render(bytes: Array("hello".utf8), box: 128) }
        #expect(throws: ImagingError.self) { try Thumbnailer.render(bytes: Array("II*\0".utf8) + [8, 0, 0, 0, 0, 0], box: 128) }
    }

    @Test func thumbnailPNGCarriesOnlyTheGivenText() throws {
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let location = GeoLocation(latitude: 48.8584, longitude: 2.2945)
        let fields = ExifFields(make: "Canon", model: "EOS", orientation: 1, location: location)
        Fixture.write(try Fixture.jpeg(Fixture.quadrants(width: 300, height: 200), exif: fields), to: dir + "/p.jpg")
        let made = try Thumbnailer.png(
            path: Array((dir + "/p.jpg").utf8), box: 128, text: [("Thumb::URI", "file://\(dir)/p.jpg"), ("Thumb::MTime", "5")])
        #expect(PNGChunks.text(of: made.png) == ["Thumb::URI": "file://\(dir)/p.jpg", "Thumb::MTime": "5"])
        #expect(try PNGCodec.decode(made.png).width == 128)
        #expect(!made.png.contains(subsequence: Array("Canon".utf8)) && !made.png.contains(subsequence: Array("Exif".utf8)))
    }

    /// A movie of just `ftyp` and `moov/mvhd` (version 0).
    static func movie(timescale: UInt32, duration: UInt32) -> [UInt8] {
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ftyp = be(20) + Array("ftypisom".utf8) + be(0) + Array("isom".utf8)
        let mvhdBody = [0, 0, 0, 0] + be(0) + be(0) + be(timescale) + be(duration) + [UInt8](repeating: 0, count: 80)
        let mvhd = be(UInt32(8 + mvhdBody.count)) + Array("mvhd".utf8) + mvhdBody
        let moov = be(UInt32(8 + mvhd.count)) + Array("moov".utf8) + mvhd
        return ftyp + moov
    }
}

extension Array where Element == UInt8 {
    func contains(subsequence: [UInt8]) -> Bool {
        guard subsequence.count <= count else { return false }
        return (0...(count - subsequence.count)).contains { self[$0..<($0 + subsequence.count)].elementsEqual(subsequence) }
    }
}
