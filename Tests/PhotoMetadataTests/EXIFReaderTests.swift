import MediaFormats
import PhotoCore
import PhotoSamples
import TestSupport
import Testing

@testable import PhotoMetadata

/// The libexif-backed reader on blocks built byte by byte, in both byte orders.
@Suite struct EXIFReaderTests {
    @Test(arguments: [false, true])
    func readsEveryField(bigEndian: Bool) throws {
        let facts = try EXIFReader.read(tiffBlock: TIFFBlockBuilder.complete(bigEndian: bigEndian).build())
        #expect(facts.captureDate?.description == "2019-09-09 14:49:29+09:30")
        #expect(facts.dateSource == .dateTimeOriginal)
        #expect(facts.make == "Canon")
        #expect(facts.model == "EOS 40D")
        #expect(facts.lens == "EF-S17-85mm f/4-5.6 IS USM")
        #expect(facts.orientation == 6)
        #expect(facts.software == "Firmware 1.0.3")
        #expect(facts.pixelXDimension == 3888 && facts.pixelYDimension == 2592)
        #expect(facts.imageWidth == 640 && facts.imageLength == 480)
        #expect(facts.pixelWidth == 3888 && facts.pixelHeight == 2592)
        #expect(facts.saysScreenshot)
        #expect(facts.hasGPSDirectory)
        let location = try #require(facts.location)
        #expect(abs(location.latitude - -(33 + 51.0 / 60 + 54.99 / 3600)) < 1e-9)
        #expect(abs(location.longitude - -(70 + 30.30 / 60)) < 1e-9)
        #expect(location.altitude == -12.5)
        #expect(facts.problems.isEmpty, "\(facts.problems)")
    }

    @Test(arguments: [false, true])
    func dateFallsBackToCreateDateThenDateTime(bigEndian: Bool) throws {
        var builder = TIFFBlockBuilder.complete(bigEndian: bigEndian)
        builder.exif.removeAll { $0.tag == 0x9003 }
        let created = try EXIFReader.read(tiffBlock: builder.build())
        #expect(created.captureDate?.description == "2019-09-09 14:49:30")
        #expect(created.dateSource == .createDate)

        builder.exif.removeAll { $0.tag == 0x9004 }
        let modified = try EXIFReader.read(tiffBlock: builder.build())
        #expect(modified.captureDate?.description == "2020-01-02 03:04:05")
        #expect(modified.dateSource == .modifyDate)

        builder.ifd0.removeAll { $0.tag == 0x0132 }
        let none = try EXIFReader.read(tiffBlock: builder.build())
        #expect(none.captureDate == nil && none.dateSource == nil)
    }

    @Test(arguments: [false, true])
    func invalidValuesBecomeNilWithAProblem(bigEndian: Bool) throws {
        var b = TIFFBlockBuilder(bigEndian: bigEndian)
        b.ifd0 = [
            b.rawASCII(0x010F, [0, 0, 0, 0]),  // only NULs
            b.rawASCII(0x0110, Array("      ".utf8) + [0]),  // only spaces
            b.short(0x0112, 9),
            b.long(0x0100, 0),
        ]
        b.exif = [
            b.ascii(0x9003, "0000:00:00 00:00:00"),
            b.ascii(0x9004, "    :  :     :  :  "),
            b.ascii(0x9011, "garbage"),
        ]
        b.gps = [
            b.ascii(0x0001, "N"),
            b.rationals(0x0002, [(12, 0), (30, 1), (0, 1)]),  // degrees with denominator 0
            b.ascii(0x0003, "E"),
            b.rationals(0x0004, [(10, 1), (0, 1), (0, 1)]),
        ]
        let facts = try EXIFReader.read(tiffBlock: b.build())
        #expect(facts.make == nil && facts.model == nil)
        #expect(facts.orientation == nil)
        #expect(facts.imageWidth == nil)
        #expect(facts.captureDate == nil)
        #expect(facts.location == nil)
        #expect(facts.hasGPSDirectory)
        for expected in ["Orientation", "ImageWidth", "DateTimeOriginal", "CreateDate", "GPS latitude"] {
            #expect(facts.problems.contains { $0.contains(expected) }, "no problem names \(expected): \(facts.problems)")
        }
    }

    @Test(arguments: [false, true])
    func outOfRangeAndPartialCoordinates(bigEndian: Bool) throws {
        var b = TIFFBlockBuilder(bigEndian: bigEndian)
        b.ifd0 = [b.ascii(0x010F, "X")]
        b.gps = [
            b.ascii(0x0001, "N"),
            b.rationals(0x0002, [(95, 1), (0, 1), (0, 1)]),
            b.ascii(0x0003, "E"),
            b.rationals(0x0004, [(10, 1), (0, 1), (0, 1)]),
        ]
        let outOfRange = try EXIFReader.read(tiffBlock: b.build())
        #expect(outOfRange.location == nil)
        #expect(outOfRange.problems.contains { $0.contains("out of range") })

        // A 0/0 seconds part (Nikon D5000) reads as 0; a missing ref is taken as positive.
        b.gps = [
            b.rationals(0x0002, [(48, 1), (5_332_358, 100_000), (0, 0)]),
            b.ascii(0x0003, "E"),
            b.rationals(0x0004, [(21, 1), (259_507, 100_000), (0, 0)]),
        ]
        let partial = try EXIFReader.read(tiffBlock: b.build())
        let location = try #require(partial.location)
        #expect(abs(location.latitude - (48 + 53.32358 / 60)) < 1e-9)
        #expect(abs(location.longitude - (21 + 2.59507 / 60)) < 1e-9)
        #expect(partial.problems.contains { $0.contains("no reference") })
    }

    @Test func problemsNeverCarryCoordinates() throws {
        var b = TIFFBlockBuilder.complete(bigEndian: false)
        b.gps[1] = b.rationals(0x0002, [(91, 1), (51, 1), (5499, 100)])
        let facts = try EXIFReader.read(tiffBlock: b.build())
        for problem in facts.problems {
            #expect(!problem.contains("91") && !problem.contains("54.99") && !problem.contains("70"), "\(problem)")
        }
    }

    @Test func latin1TextAndScreenshotDescription() throws {
        var b = TIFFBlockBuilder(bigEndian: true)
        b.ifd0 = [b.rawASCII(0x010F, [0x43, 0xC9, 0x4C, 0x00]), b.ascii(0x010E, "Screenshot from 2024-06-01")]
        let facts = try EXIFReader.read(tiffBlock: b.build())
        #expect(facts.make == "CÉL")
        #expect(facts.saysScreenshot)
    }

    @Test func refusesWhatIsNotEXIF() {
        #expect(throws: EXIFReadError.notTIFF) { try EXIFReader.read(tiffBlock: Array("hello, world".utf8)) }
        #expect(throws: EXIFReadError.notTIFF) { try EXIFReader.read(tiffBlock: [0x49, 0x49, 0x2A]) }
        // A valid header whose IFD0 offset points past the end.
        #expect(throws: EXIFReadError.self) { try EXIFReader.read(tiffBlock: [0x49, 0x49, 0x2A, 0x00, 0xFF, 0xFF, 0, 0, 0, 0]) }
    }

    /// A block longer than libexif reads (TIFF files), with IFD0 after 100 KB of image data:
    /// the repacker must hand libexif the same entries.
    @Test(arguments: [false, true])
    func longBlocksAreRepacked(bigEndian: Bool) throws {
        var builder = TIFFBlockBuilder.complete(bigEndian: bigEndian)
        builder.paddingBeforeIFD0 = 100_000
        builder.ifd0.append(builder.undefined(0x927C, [UInt8](repeating: 7, count: 20_000)))  // too big to copy
        let block = builder.build()
        #expect(block.count > 0xFFFF)
        let fromMemory = try EXIFReader.read(tiffBlock: block)
        let fromSource = try EXIFReader.read(MemoryByteSource([1, 2, 3] + block), block: ByteRange(offset: 3, length: Int64(block.count)))
        let small = try EXIFReader.read(tiffBlock: TIFFBlockBuilder.complete(bigEndian: bigEndian).build())
        for facts in [fromMemory, fromSource] {
            #expect(facts.captureDate == small.captureDate)
            #expect(facts.make == small.make && facts.model == small.model && facts.lens == small.lens)
            #expect(facts.orientation == small.orientation)
            #expect(facts.pixelWidth == small.pixelWidth && facts.imageWidth == small.imageWidth)
            #expect(facts.location == small.location)
            #expect(facts.problems.contains { $0.contains("not copied") })
        }
    }

    /// Mutated and truncated blocks: the reader may refuse them but must never trap or hang.
    @Test func survivesMutatedBlocks() {
        var generator = SeededRandom(seed: 0x5EED)
        let originals = [
            TIFFBlockBuilder.complete(bigEndian: false).build(), TIFFBlockBuilder.complete(bigEndian: true).build(),
        ]
        var readable = 0
        for round in 0..<3000 {
            var block = originals[round % 2]
            let edits = 1 + Int(generator.next() % 8)
            for _ in 0..<edits {
                let index = Int(generator.next() % UInt64(block.count))
                block[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if round % 7 == 0 { block = Array(block.prefix(Int(generator.next() % UInt64(block.count)))) }
            if (try? EXIFReader.read(tiffBlock: block)) != nil { readable += 1 }
        }
        #expect(readable > 0)
    }

    /// An Exif IFD pointer that leads back to IFD0 in a long block: the repacker copies
    /// IFD0 once more as the "Exif IFD" but never follows pointers found there.
    @Test(arguments: [false, true])
    func repackerDoesNotLoopOnSelfPointers(bigEndian: Bool) throws {
        var builder = TIFFBlockBuilder.complete(bigEndian: bigEndian)
        builder.paddingBeforeIFD0 = 70_000
        var block = builder.build()
        let ifd0 = 8 + 70_000
        let count = Int(bigEndian ? UInt16(block[ifd0]) << 8 | UInt16(block[ifd0 + 1]) : UInt16(block[ifd0 + 1]) << 8 | UInt16(block[ifd0]))
        let pointer = builder.u16(0x8769)
        let entry = try #require((0..<count).map { ifd0 + 2 + $0 * 12 }.first { Array(block[$0..<($0 + 2)]) == pointer })
        block.replaceSubrange((entry + 8)..<(entry + 12), with: builder.u32(UInt32(ifd0)))
        let facts = try EXIFReader.read(tiffBlock: block)
        #expect(facts.make == "Canon")
        #expect(facts.captureDate?.description == "2020-01-02 03:04:05")  // only IFD0's DateTime is left
        #expect(facts.dateSource == .modifyDate)
    }

    /// Mutated long blocks go through the repacker first: it must bound every offset too.
    @Test func survivesMutatedLongBlocks() {
        var generator = SeededRandom(seed: 0xB16)
        var builder = TIFFBlockBuilder.complete(bigEndian: true)
        builder.paddingBeforeIFD0 = 70_000
        let original = builder.build()
        let tableStart = 8 + 70_000
        for round in 0..<300 {
            var block = original
            // Aim the edits at the directories and values, not the padding.
            for _ in 0..<(1 + Int(generator.next() % 6)) {
                let index =
                    round % 5 == 0 ? Int(generator.next() % 8) : tableStart + Int(generator.next() % UInt64(block.count - tableStart))
                block[index] = UInt8(truncatingIfNeeded: generator.next())
            }
            if round % 9 == 0 { block = Array(block.prefix(tableStart + Int(generator.next() % UInt64(block.count - tableStart)))) }
            _ = try? EXIFReader.read(tiffBlock: block)
        }
    }

    @Test(arguments: [("+09:30", 570), ("-05:00", -300), ("+00:00", 0), ("Z", 0)])
    func utcOffsets(text: String, minutes: Int) {
        #expect(CaptureDate.utcOffsetMinutes(text) == minutes)
    }

    @Test(arguments: ["", "09:30", "+9:30", "+15:00", "+09:61", "garbage"])
    func badUTCOffsets(text: String) {
        #expect(CaptureDate.utcOffsetMinutes(text) == nil)
    }
}

/// Real EXIF blocks (with Canon, Nikon, Olympus, Fuji, Pentax, Apple maker notes, which
/// libexif parses on load) mutated at random: libexif and the reader must not trap.
@Suite struct EXIFReaderCorpusMutationTests {
    static let files = [
        "exif-samples/Canon_40D.jpg", "exiftool/Nikon.jpg", "exiftool/Olympus.jpg", "exiftool/FujiFilm.jpg",
        "exiftool/Pentax.jpg", "exiftool/Apple.jpg", "exiftool/Casio.jpg", "exiftool/Sony.jpg", "exiftool/Canon.jpg", "exiftool/Sigma.jpg",
    ]

    @Test func survivesMutatedCameraBlocks() throws {
        guard Corpus.directory != nil else {
            try Skip.because("EXIFReaderCorpusMutationTests: corpus not found; skipping")
        }
        var generator = SeededRandom(seed: 0xC0FFEE)
        var blocks = 0
        for name in Self.files {
            guard let bytes = Corpus.bytes(name) else { continue }
            let source = MemoryByteSource(bytes)
            guard let format = MediaSniffer.format(of: source),
                let range = ContainerWalker.layout(of: source, format: format).exifBlocks.first
            else { continue }
            let block = Array(bytes[Int(range.offset)..<Int(range.offset + range.length)])
            blocks += 1
            for round in 0..<300 {
                var mutated = block
                for _ in 0..<(1 + Int(generator.next() % 16)) {
                    mutated[Int(generator.next() % UInt64(mutated.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
                if round % 11 == 0 { mutated = Array(mutated.prefix(Int(generator.next() % UInt64(mutated.count)))) }
                _ = try? EXIFReader.read(tiffBlock: mutated)
            }
        }
        #expect(blocks >= 5)
    }
}
