import Testing

@testable import MediaFormats

@Suite struct MediaSnifferTests {
    static let cases: [(String, [UInt8], MediaFormat?)] = [
        ("jpeg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 16], .jpeg),
        ("png", Fixture.pngSignature + Fixture.pngChunk("IHDR", [UInt8](repeating: 0, count: 13)), .png),
        ("gif87a", Fixture.ascii("GIF87a") + [1, 0, 1, 0], .gif),
        ("gif89a", Fixture.ascii("GIF89a") + [1, 0, 1, 0], .gif),
        ("webp", Fixture.webp([Fixture.riffChunk("VP8L", [0x2F, 0, 0, 0, 0])]), .webp),
        ("avi is RIFF but not WebP", Fixture.ascii("RIFF") + Fixture.le32(4) + Fixture.ascii("AVI LIST"), .avi),
        ("tiff le", Fixture.tiff(), .tiff),
        ("tiff be", Fixture.tiff(bigEndian: true), .tiff),
        ("dng", Fixture.tiff(dng: true), .dng),
        ("dng be", Fixture.tiff(bigEndian: true, dng: true), .dng),
        ("nef-like", Fixture.tiff(make: "NIKON CORPORATION", subIFDs: true), .raw),
        ("nikon tiff without SubIFDs", Fixture.tiff(make: "NIKON CORPORATION"), .tiff),
        ("cr2", [0x49, 0x49, 0x2A, 0x00, 0x10, 0, 0, 0, 0x43, 0x52, 2, 0, 0, 0, 0, 0, 0, 0], .raw),
        ("bigtiff", [0x49, 0x49, 0x2B, 0x00, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0], .bigTIFF),
        ("jxl codestream", [0xFF, 0x0A, 0xFA, 0x7F, 0x01, 0x90], .jxl),
        (
            "jxl container",
            JXLWalker.containerSignature + Fixture.box("ftyp", Fixture.ascii("jxl ") + [0, 0, 0, 0] + Fixture.ascii("jxl ")), .jxl
        ),
        (
            "bmp",
            Fixture.ascii("BM") + Fixture.le32(26) + [0, 0, 0, 0] + Fixture.le32(26) + Fixture.le32(12) + [1, 0, 1, 0, 1, 0, 24, 0], .bmp
        ),
        (
            "bmp with a size past the file",
            Fixture.ascii("BM") + Fixture.le32(9999) + [0, 0, 0, 0] + Fixture.le32(26) + Fixture.le32(12) + [1, 0, 1, 0, 1, 0, 24, 0], nil
        ),
        (
            "mpeg-ts",
            [0x47, 0x40, 0, 0x10] + [UInt8](repeating: 0xFF, count: 184) + [0x47] + [UInt8](repeating: 0xFF, count: 187) + [0x47, 0, 0],
            .mpegTS
        ),
        ("bmp", Fixture.ascii("BM") + [UInt8](repeating: 0, count: 30), nil),
        ("mkv", [0x1A, 0x45, 0xDF, 0xA3, 0x93, 0x42, 0x82, 0x88], nil),
        ("text", Fixture.ascii("hello, world\n"), nil),
        ("empty", [], nil),
        ("heic", Fixture.box("ftyp", Fixture.ascii("heic") + [0, 0, 0, 0] + Fixture.ascii("mif1heic")), .heic),
        ("mif1 with heic", Fixture.box("ftyp", Fixture.ascii("mif1") + [0, 0, 0, 0] + Fixture.ascii("mif1heichevc")), .heic),
        ("heif", Fixture.box("ftyp", Fixture.ascii("mif1") + [0, 0, 0, 0] + Fixture.ascii("mif1")), .heif),
        ("avif", Fixture.box("ftyp", Fixture.ascii("avif") + [0, 0, 0, 0] + Fixture.ascii("avifmif1miaf")), .avif),
        ("mif1 with avif", Fixture.box("ftyp", Fixture.ascii("mif1") + [0, 0, 0, 0] + Fixture.ascii("mif1avif")), .avif),
        ("mov", Fixture.box("ftyp", Fixture.ascii("qt  ") + [0, 0, 2, 0] + Fixture.ascii("qt  ")), .mov),
        ("3gp", Fixture.box("ftyp", Fixture.ascii("3gp4") + [0, 0, 2, 0] + Fixture.ascii("isom3gp4")), .threeGP),
        ("3g2", Fixture.box("ftyp", Fixture.ascii("3g2a") + [0, 0, 2, 0] + Fixture.ascii("3g2amp42")), .threeGP),
        ("mp4", Fixture.box("ftyp", Fixture.ascii("mp42") + [0, 0, 0, 0] + Fixture.ascii("isommp42")), .mp4),
        ("m4v", Fixture.box("ftyp", Fixture.ascii("M4V ") + [0, 0, 0, 0] + Fixture.ascii("M4V mp42isom")), .mp4),
        ("unknown brand", Fixture.box("ftyp", Fixture.ascii("abcd") + [0, 0, 0, 0] + Fixture.ascii("efgh")), nil),
        ("quicktime without ftyp", Fixture.box("moov", Fixture.box("mvhd", [UInt8](repeating: 0, count: 100))), .mov),
        ("ftyp too short", Fixture.be32(8) + Fixture.ascii("ftyp"), nil),
    ]

    @Test(arguments: cases)
    func sniffsMagicBytes(name: String, bytes: [UInt8], expected: MediaFormat?) {
        #expect(MediaSniffer.format(of: MemoryByteSource(bytes)) == expected, "\(name)")
    }
}
