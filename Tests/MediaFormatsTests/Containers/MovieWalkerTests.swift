import Testing

@testable import MediaFormats

@Suite struct MovieWalkerTests {
    typealias F = Fixture

    /// 2024-06-15 08:00:00 UTC in seconds since 1904.
    static let creation = 1_718_438_400 + 2_082_844_800

    static func mvhd(version: UInt8 = 0, seconds: Int) -> [UInt8] {
        let times =
            version == 1
            ? F.be64(seconds) + F.be64(seconds) + F.be32(600) + F.be64(0) : F.be32(seconds) + F.be32(seconds) + F.be32(600) + F.be32(0)
        return F.fullBox("mvhd", version: version, times + [UInt8](repeating: 0, count: 80))
    }

    static func tkhd(version: UInt8 = 0, width: Int, height: Int) -> [UInt8] {
        let head = [UInt8](repeating: 0, count: version == 1 ? 32 : 20) + [UInt8](repeating: 0, count: 52)
        return F.fullBox("tkhd", version: version, head + F.be32(width << 16) + F.be32(height << 16))
    }

    static func userText(_ type: String, _ text: String) -> [UInt8] {
        F.box(type, F.be16(text.utf8.count) + F.be16(0x15C7) + F.ascii(text))
    }

    static func dataAtom(_ text: String) -> [UInt8] { F.box("data", F.be32(1) + F.be32(0) + F.ascii(text)) }

    /// QuickTime-style meta (no version/flags) with the mdta keys Apple writes.
    static func appleMeta(location: String) -> [UInt8] {
        let keyNames = ["com.apple.quicktime.make", "com.apple.quicktime.location.ISO6709", "com.apple.quicktime.model"]
        let keys = F.fullBox(
            "keys", F.be32(keyNames.count) + keyNames.flatMap { F.be32($0.utf8.count + 8) + F.ascii("mdta") + F.ascii($0) })
        let ilst = F.box(
            "ilst",
            F.be32(8 + 8 + 8 + 5) + F.be32(1) + dataAtom("Apple") + F.be32(8 + 16 + location.utf8.count) + F.be32(2) + dataAtom(location)
                + F.be32(8 + 8 + 8 + 9) + F.be32(3) + dataAtom("iPhone 15"))
        let hdlr = F.fullBox("hdlr", F.be32(0) + F.ascii("mdta") + [UInt8](repeating: 0, count: 13))
        return F.box("meta", hdlr + keys + ilst)
    }

    @Test(arguments: [false, true])
    func readsDateSizeMakeModelAndLocations(moovFirst: Bool) throws {
        let ftyp = F.box("ftyp", F.ascii("qt  ") + F.be32(0) + F.ascii("qt  "))
        let mdat = F.box("mdat", [UInt8](repeating: 0, count: 33))
        let xyz = "+37.4230-122.1620+010.000/"
        let apple = "+48.8584+002.2945+035.000/"
        let trakAudio = F.box("trak", Self.tkhd(width: 0, height: 0))
        let trakVideo = F.box("trak", Self.tkhd(version: 1, width: 1920, height: 1080))
        let udta = F.box(
            "udta",
            Self.userText("\u{A9}xyz", xyz) + F.fullBox("loci", [0x15, 0xC7] + F.ascii("Home\0") + [0] + F.be32(0) + F.be32(0) + F.be32(0))
                + Self.userText("\u{A9}mak", "Acme"))
        let moov = F.box(
            "moov", Self.mvhd(seconds: Self.creation) + trakAudio + trakVideo + udta + Self.appleMeta(location: apple) + F.be32(0))
        let bytes = moovFirst ? ftyp + moov + mdat : ftyp + mdat + moov
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .mov)
        let movie = try #require(layout.movie)
        #expect(movie.creationDate == CaptureDate(year: 2024, month: 6, day: 15, hour: 8, utcOffsetMinutes: 0))
        #expect(movie.width == 1920 && movie.height == 1080)
        #expect(layout.pixelWidth == 1920 && layout.pixelHeight == 1080)
        #expect(movie.make == "Acme")
        #expect(movie.model == "iPhone 15")
        let parsed = try #require(movie.location)
        #expect(abs(parsed.latitude - 37.4230) < 1e-9 && abs(parsed.longitude + 122.1620) < 1e-9 && parsed.altitude == 10)
        let xyzPayload = try #require(F.offset(of: F.be16(xyz.utf8.count) + F.be16(0x15C7) + F.ascii(xyz), in: bytes))
        let lociPayload = try #require(F.offset(of: [0, 0, 0, 0, 0x15, 0xC7] + F.ascii("Home"), in: bytes))
        let applePayload = try #require(F.offset(of: F.ascii(apple), in: bytes))
        #expect(
            movie.locationPayloads == [
                range(xyzPayload, 4 + xyz.utf8.count), range(lociPayload, 4 + 2 + 5 + 1 + 12), range(applePayload, apple.utf8.count),
            ])
        #expect(layout.isComplete && layout.problems.isEmpty)
    }

    @Test func mvhdVersion1AndZeroDates() throws {
        let v1 = F.box("moov", Self.mvhd(version: 1, seconds: Self.creation))
        #expect(ContainerWalker.layout(of: MemoryByteSource(v1), format: .mp4).movie?.creationDate?.year == 2024)
        let zero = F.box("moov", Self.mvhd(seconds: 0))
        #expect(try #require(ContainerWalker.layout(of: MemoryByteSource(zero), format: .mp4).movie).creationDate == nil)
    }

    @Test func isoStyleMetaWithIlstXyzAndXmpUUID() throws {
        let loc = "+51.4169-000.0806/"
        let ilst = F.box("ilst", F.box("\u{A9}xyz", Self.dataAtom(loc)))
        let meta = F.fullBox("meta", F.fullBox("hdlr", F.be32(0) + F.ascii("mdir") + [UInt8](repeating: 0, count: 13)) + ilst)
        let xml = F.ascii("<x:xmpmeta/>")
        let uuid = F.be32(8 + 16 + xml.count) + F.ascii("uuid") + MovieWalker.xmpUUID + xml
        let bytes = F.box("ftyp", F.ascii("mp42") + F.be32(0) + F.ascii("isom")) + F.box("moov", F.box("udta", meta)) + uuid
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .mp4)
        let movie = try #require(layout.movie)
        let at = try #require(F.offset(of: F.ascii(loc), in: bytes))
        #expect(movie.locationPayloads == [range(at, loc.utf8.count)])
        #expect(movie.location != nil)
        #expect(layout.xmpPackets == [range(bytes.count - xml.count, xml.count)])
    }

    @Test func childEscapingItsParentIsIncomplete() {
        // udta claims more bytes than moov holds.
        var moov = F.box("moov", F.box("udta", Self.userText("\u{A9}xyz", "+10.0000+020.0000/")))
        moov.replaceSubrange(8..<12, with: F.be32(10_000))
        let layout = ContainerWalker.layout(of: MemoryByteSource(moov + F.box("free", [])), format: .mp4)
        #expect(!layout.isComplete)
    }

    @Test func truncatedMediaDataAfterMoovIsHarmless() {
        let bytes = F.box("moov", Self.mvhd(seconds: Self.creation)) + F.be32(1000) + F.ascii("mdat") + [1, 2, 3]
        let layout = ContainerWalker.layout(of: MemoryByteSource(bytes), format: .mp4)
        #expect(layout.isComplete)
        #expect(layout.problems.count == 1)
    }

    @Test(arguments: ["gpmd", "camm", "mp4a"])
    func timedMetadataTracksWithGPSAreUnpatchable(format: String) {
        let stsd = Fixture.fullBox("stsd", Fixture.be32(1) + Fixture.box(format, [UInt8](repeating: 0, count: 8)))
        let trak = Fixture.box("trak", Fixture.box("mdia", Fixture.box("minf", Fixture.box("stbl", stsd))))
        let layout = ContainerWalker.layout(of: MemoryByteSource(Fixture.box("moov", trak)), format: .mp4)
        #expect(layout.isComplete == (format == "mp4a"))
    }

    @Test func keysAtomLyingAboutItsCountIsIncomplete() throws {
        var meta = Self.appleMeta(location: "+10.0000+020.0000/")
        let keys = try #require(Fixture.offset(of: Fixture.ascii("keys"), in: meta))
        meta.replaceSubrange((keys + 8)..<(keys + 12), with: Fixture.be32(5))
        let layout = ContainerWalker.layout(of: MemoryByteSource(Fixture.box("moov", meta)), format: .mov)
        #expect(!layout.isComplete)
    }

    @Test func missingMoovIsIncomplete() {
        let bytes = F.box("ftyp", F.ascii("mp42") + F.be32(0)) + F.box("mdat", [1, 2, 3])
        #expect(!ContainerWalker.layout(of: MemoryByteSource(bytes), format: .mp4).isComplete)
    }
}

@Suite struct ISO6709Tests {
    @Test(arguments: [
        ("+37.4230-122.1620+010.000/", 37.4230, -122.1620, 10.0 as Double?),
        ("+37.4230-122.1620/", 37.4230, -122.1620, nil),
        ("-33.8568+151.2153CRSWGS_84/", -33.8568, 151.2153, nil),
        ("+4852.5-00217.7/", 48.875, -2.295, nil),
        ("+485230+0021742/", 48.875, 2.295, nil),
    ])
    func parses(text: String, lat: Double, lon: Double, alt: Double?) throws {
        let location = try #require(ISO6709.parse(text))
        #expect(abs(location.latitude - lat) < 1e-9)
        #expect(abs(location.longitude - lon) < 1e-9)
        #expect(location.altitude == alt)
    }

    @Test(arguments: ["", "/", "+37.4230/", "37.4230-122.1620/", "+95.0000+010.0000/", "+1x.0-2.0/"])
    func rejects(text: String) {
        #expect(ISO6709.parse(text) == nil)
    }
}
