import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// `--metadata private` for videos, GIF and AVI, judged by exiftool `-ee`: every corpus
/// file of those formats (and a QuickTime fixture with the user data, `mdta` keys and
/// iTunes items writers add) is planned, the private plans' bytes are written to a
/// temporary folder, and exiftool must find none of the identity tags it found in the
/// original (no user-data, key or item tag beyond make, model and dates; no GIF comment;
/// no AVI INFO text but the date), no new warning, and the same make, model and dates where
/// the container says them (a maker note that says them is blanked whole).
/// Skips (printing why) without exiftool; the corpus part skips without the corpus.
@Suite struct PrivateVideoTests {
    /// Tags of these groups that may stay in a private view: camera, dates and what describes
    /// the media itself, never a person, a text or a serial.
    static let keptNames: Set<String> = [
        "Make", "Model", "CreationDate", "ContentCreateDate", "DateTimeOriginal", "CreateDate", "GPSCoordinates",
        "LocationAccuracyHorizontal", "AndroidVersion",
    ]
    static let textGroups: Set<String> = ["Keys", "UserData", "ItemList", "Pentax", "GIF", "RIFF"]
    /// Names of the GIF and RIFF groups that describe the media, not a person.
    static let mediaNames: Set<String> = [
        "GIFVersion", "ImageWidth", "ImageHeight", "HasColorMap", "ColorResolutionDepth", "BitsPerPixel", "BackgroundColor",
        "AnimationIterations", "FrameCount", "Duration", "TransparentColor", "XMPToolkit",
    ]

    /// The tags of `reading` that a private view must not carry: any listed identity name,
    /// and any user-data, key, item, maker or text tag that is not camera, date or media.
    static func identityKeys(_ reading: [String: Any]) -> [String] {
        let names: Set<String> = [
            "Author", "Artist", "Comment", "Title", "Description", "Keywords", "Copyright", "Information", "Album", "Composer",
            "Genre", "Lyrics", "AlbumArtist", "Grouping", "CoverArt", "Software", "SerialNumber", "CameraSerialNumber",
            "Creator", "Text", "Subject", "Encoder", "Title", "DisplayName", "Publisher",
        ]
        return reading.keys.filter { key in
            let parts = key.split(separator: ":").map(String.init)
            guard parts.count == 2 else { return false }
            let (group, name) = (parts[0], parts[1])
            if names.contains(name) { return true }
            if group == "GIF" || group == "RIFF" { return false }
            return textGroups.contains(group) && !keptNames.contains(name)
        }.sorted()
    }

    static func warnings(_ reading: [String: Any]) -> [String] {
        reading.filter { $0.key.hasSuffix(":Warning") || $0.key.hasSuffix(":Error") }.map { "\($0.key)=\($0.value)" }.sorted()
    }

    /// A QuickTime movie with the user data, `mdta` keys and iTunes items writers add.
    static func quickTimeFixture() -> [UInt8] {
        typealias F = Fixture
        func text(_ type: String, _ value: String) -> [UInt8] { F.box(type, F.be16(value.utf8.count) + F.be16(0) + F.ascii(value)) }
        func data(_ value: String) -> [UInt8] { F.box("data", F.be32(1) + F.be32(0) + F.ascii(value)) }
        let keyNames = [
            "com.apple.quicktime.make", "com.apple.quicktime.author", "com.apple.quicktime.comment", "com.apple.quicktime.model",
        ]
        let keys = F.fullBox(
            "keys", F.be32(keyNames.count) + keyNames.flatMap { F.be32($0.utf8.count + 8) + F.ascii("mdta") + F.ascii($0) })
        let values = ["Acme", "Jane Roe", "At the lake house", "Cam 9"]
        let ilst = F.box("ilst", values.enumerated().flatMap { F.be32(8 + 16 + $1.utf8.count) + F.be32($0 + 1) + data($1) })
        let meta = F.box("meta", F.fullBox("hdlr", F.be32(0) + F.ascii("mdta") + [UInt8](repeating: 0, count: 13)) + keys + ilst)
        let items = F.box(
            "ilst", F.box("\u{A9}nam", data("Holiday")) + F.box("\u{A9}ART", data("Jane Roe")) + F.box("\u{A9}day", data("2024")))
        let itunes = F.fullBox(
            "meta", F.fullBox("hdlr", F.be32(0) + F.ascii("mdir") + F.ascii("appl") + [UInt8](repeating: 0, count: 9)) + items)
        let udta = F.box(
            "udta",
            text("\u{A9}mak", "Acme") + text("\u{A9}aut", "Jane Roe") + text("\u{A9}cmt", "Secret place") + text("\u{A9}mod", "Cam 9")
                + F.box("CNTH", [UInt8](repeating: 7, count: 40)) + itunes)
        let mvhd = F.fullBox(
            "mvhd", F.be32(3_801_312_000) + F.be32(3_801_312_000) + F.be32(600) + F.be32(600) + [UInt8](repeating: 0, count: 80))
        let sony = F.be32(8 + 16 + 12) + F.ascii("uuid") + [UInt8](repeating: 0x55, count: 16) + F.ascii("SERIAL-12345")
        return F.box("ftyp", F.ascii("qt  ") + F.be32(0) + F.ascii("qt  ")) + F.box("moov", mvhd + udta + meta) + sony
            + F.box("mdat", [1, 2, 3])
    }

    @Test func corpusAndFixtureVideosGIFAndAVI() throws {
        guard ExternalTools.exiftool != nil else {
            try Skip.because("skipping private video test: exiftool is not installed")
        }
        let formats: Set<MediaFormat> = [.mp4, .mov, .threeGP, .gif, .avi]
        var inputs: [(name: String, bytes: [UInt8])] = [("fixture.mov", Self.quickTimeFixture())]
        if let dir = Corpus.directory, let list = FileManager.default.subpaths(atPath: dir) {
            for path in list.sorted() {
                guard let data = FileManager.default.contents(atPath: dir + "/" + path), data.count < 64 << 20 else { continue }
                let bytes = [UInt8](data)
                guard let format = MediaSniffer.format(of: MemoryByteSource(bytes)), formats.contains(format) else { continue }
                inputs.append((path, bytes))
            }
        } else {
            print("private video test: no corpus, the fixture only")
        }
        let temp = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: temp) }
        var pairs: [(name: String, original: String, served: String)] = []
        for (index, input) in inputs.enumerated() {
            let source = MemoryByteSource(input.bytes)
            guard let format = MediaSniffer.format(of: source) else { continue }
            let layout = ContainerWalker.layout(of: source, format: format)
            let plans = RedactionPlanner.plans(layout: layout, source: source).privatePlans
            guard case .patches(let patches) = plans.plan(for: .keep) else {
                print("private: \(input.name): withheld (\(plans.plan(for: .keep)))")
                #expect(input.name != "fixture.mov", "the fixture is withheld")
                continue
            }
            var served = input.bytes
            PatchOverlay.apply(patches, to: &served, at: 0)
            let original = temp.appendingPathComponent("\(index)-original").path
            let servedPath = temp.appendingPathComponent("\(index)-private").path
            try Data(input.bytes).write(to: URL(fileURLWithPath: original))
            try Data(served).write(to: URL(fileURLWithPath: servedPath))
            pairs.append((input.name, original, servedPath))
        }
        let rows = try ExternalTools.exiftoolJSON(pairs.flatMap { [$0.original, $0.served] }, extra: ["-ee", "-a", "-G1"])
        var readings: [String: [String: Any]] = [:]
        for row in rows { if let path = row["SourceFile"] as? String { readings[path] = row } }
        for pair in pairs {
            let before = try #require(readings[pair.original], "\(pair.name): exiftool reads nothing")
            let after = try #require(readings[pair.served], "\(pair.name): exiftool cannot read the private copy")
            let found = Self.identityKeys(before)
            let left = Self.identityKeys(after)
            print("private: \(pair.name): \(found.count) identity tag(s) before, \(left.count) after")
            #expect(left.isEmpty, "\(pair.name): private keeps \(left)")
            #expect(Set(Self.warnings(after)).isSubset(of: Self.warnings(before)), "\(pair.name): new warnings \(Self.warnings(after))")
            // Make and model stay where the container says them (a maker note that says them goes whole).
            let containerGroups = ["UserData", "Keys", "ItemList", "QuickTime", "RIFF"]
            for kept in ["Make", "Model", "CreateDate"] {
                let keys = containerGroups.map { $0 + ":" + kept }
                let a = before.filter { keys.contains($0.key) }.map { "\($0.value)" }.sorted()
                let b = after.filter { keys.contains($0.key) }.map { "\($0.value)" }.sorted()
                #expect(a == b, "\(pair.name): \(kept) changed")
            }
            if pair.name == "fixture.mov" { #expect(found.count >= 6, "the fixture's identity tags are not read: \(found)") }
        }
    }
}
