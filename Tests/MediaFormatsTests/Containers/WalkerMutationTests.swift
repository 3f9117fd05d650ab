import PhotoSamples
import Testing

@testable import MediaFormats

/// Feeds thousands of deterministic mutations and truncations of the fixtures (and of small
/// corpus files, when present) through the sniffer and every walker: each call must return,
/// and every range it reports must lie inside the file.
@Suite(.timeLimit(.minutes(2))) struct WalkerMutationTests {

    static func seeds() -> [(String, [UInt8], MediaFormat)] {
        var seeds: [(String, [UInt8], MediaFormat)] = [
            ("jpeg", JPEGWalkerTests.simpleJPEG().bytes, .jpeg),
            (
                "png",
                Fixture.pngSignature + PNGWalkerTests.ihdr + Fixture.pngChunk("eXIf", Fixture.tiff())
                    + Fixture.pngChunk("iTXt", Fixture.ascii("XML:com.adobe.xmp\0\0\0\0\0<x/>")) + Fixture.pngChunk("IEND", []), .png
            ),
            (
                "webp",
                Fixture.webp([
                    Fixture.riffChunk("VP8X", [UInt8](repeating: 1, count: 10)),
                    Fixture.riffChunk("EXIF", Fixture.ascii("Exif\0\0") + Fixture.tiff()), Fixture.riffChunk("XMP ", Fixture.ascii("<x/>")),
                ]), .webp
            ),
            ("heic", HEIFWalkerTests.heic().bytes, .heic),
            ("tiff", Fixture.tiff(dng: true), .dng),
            ("gif", GIFWalkerTests.gif(xml: Fixture.ascii("<x:xmpmeta/>")).bytes, .gif),
        ]
        let movie =
            Fixture.box("ftyp", Fixture.ascii("qt  ") + Fixture.be32(0))
            + Fixture.box(
                "moov",
                MovieWalkerTests.mvhd(seconds: MovieWalkerTests.creation)
                    + Fixture.box("trak", MovieWalkerTests.tkhd(width: 64, height: 48))
                    + Fixture.box("udta", MovieWalkerTests.userText("\u{A9}xyz", "+10.0000+020.0000/"))
                    + MovieWalkerTests.appleMeta(location: "+10.0000+020.0000/"))
        seeds.append(("mov", movie, .mov))
        if let dir = Corpus.directory, let entries = CorpusSweepTests.manifest() {
            for entry in entries {
                guard let bytes = FileByteSource.contents(of: dir + "/" + entry.path), bytes.count <= 16_384,
                    let format = MediaSniffer.format(of: MemoryByteSource(bytes))
                else { continue }
                seeds.append((entry.path, bytes, format))
            }
        }
        return seeds
    }

    static func mutate(_ input: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var bytes = input
        guard !bytes.isEmpty else { return bytes }
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = Int.random(in: 0..<bytes.count, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0:
                bytes = Array(bytes.prefix(at))  // Truncate.
            case 1:
                bytes[at] = UInt8.random(in: 0...255, using: &rng)
            case 2:
                // A hostile 32-bit size or count: zero, one, huge, or just past the end.
                let value: [UInt8] = [
                    [0, 0, 0, 0], [0, 0, 0, 1], [0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xF0], Fixture.be32(bytes.count - at),
                ].randomElement(using: &rng)!
                for (i, b) in value.enumerated() where at + i < bytes.count { bytes[at + i] = b }
            case 3:
                bytes[at] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
            case 4:
                // Duplicate a slice (repeats structures, makes offsets point at the wrong thing).
                let length = Int.random(in: 1...min(64, bytes.count - at), using: &rng)
                bytes.insert(contentsOf: bytes[at..<(at + length)], at: Int.random(in: 0...bytes.count, using: &rng))
            default:
                bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...16, using: &rng)))
            }
            if bytes.isEmpty { break }
        }
        return bytes
    }

    static func checkInside(_ layout: ContainerLayout, size: Int, _ note: String) {
        let ranges =
            layout.exifBlocks + layout.xmpPackets + layout.checksummedChunks.map(\.covered) + (layout.movie?.locationPayloads ?? [])
        for r in ranges {
            #expect(
                r.offset >= 0 && r.length >= 0 && r.offset <= Int64(size) && r.length <= Int64(size) - r.offset,
                "\(note): \(r) outside \(size)")
        }
        for chunk in layout.checksummedChunks {
            #expect(chunk.checksumOffset >= 0 && chunk.checksumOffset + 4 <= Int64(size), "\(note): CRC outside")
        }
    }

    @Test func mutationsNeverTrapAndStayInside() {
        let seeds = Self.seeds()
        var rng = SeededRandom(seed: 0x5EED_F0F5)
        let rounds = max(10_000, seeds.count * 150)
        var incomplete = 0
        for round in 0..<rounds {
            let (name, original, format) = seeds[round % seeds.count]
            let bytes = Self.mutate(original, &rng)
            let source = MemoryByteSource(bytes)
            _ = MediaSniffer.format(of: source)
            // Walk as the seed's format (the sniffer would usually refuse a broken header).
            let layout = ContainerWalker.layout(of: source, format: format)
            Self.checkInside(layout, size: bytes.count, "round \(round) \(name)")
            if !layout.isComplete { incomplete += 1 }
        }
        // Most mutations must be noticed by some walker; if none were, the check is not biting.
        #expect(incomplete > rounds / 10)
        print("WalkerMutationTests: \(rounds) mutations of \(seeds.count) seeds, \(incomplete) reported incomplete")
    }

    /// A source that claims a huge size and fails or comes back short.
    struct LyingSource: ByteSource {
        let bytes: [UInt8]
        var size: Int64 { Int64.max / 2 }
        func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
            guard offset >= 0, offset < Int64(bytes.count) else { throw .io(errno: 5) }
            return Array(bytes[Int(offset)..<min(bytes.count, Int(offset) + count)])
        }
    }

    @Test(arguments: MediaFormat.allCases)
    func lyingSourceNeverTraps(format: MediaFormat) {
        for (_, bytes, _) in Self.seeds().prefix(6) {
            _ = MediaSniffer.format(of: LyingSource(bytes: bytes))
            let layout = ContainerWalker.layout(of: LyingSource(bytes: bytes), format: format)
            #expect(layout.format == format)
        }
    }
}
