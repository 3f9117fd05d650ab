import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// The identifier that pairs a Live Photo: read from the corpus's iPhone HEIC as exiftool
/// reads it (`MediaGroupUUID`, Apple maker note tag 0x0011), from a still and a movie made
/// a pair in the test, and never from a note that is not Apple's or does not parse.
@Suite struct LivePhotoIdentifierTests {
    static func identifier(_ bytes: [UInt8]) throws -> String? {
        let source = MemoryByteSource(bytes)
        let format = try #require(MediaSniffer.format(of: source))
        return LivePhotoIdentifier.read(layout: ContainerWalker.layout(of: source, format: format), source: source)
    }

    @Test func theCorpusStillAndAPairMadeFromItAgreeWithExiftool() throws {
        guard let dir = Corpus.directory else { try Skip.because("LivePhotoIdentifierTests: corpus not found (set PHOTOFS_CORPUS)") }
        guard let exiftool = ExternalTools.exiftool else { try Skip.because("LivePhotoIdentifierTests: exiftool not installed") }
        let still = dir + "/" + LivePhotoFixture.still
        let expected = try ExternalTools.run(exiftool, ["-s3", "-Apple:MediaGroupUUID", still]).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!expected.isEmpty, "the corpus iPhone HEIC carries an identifier")
        #expect(try Self.identifier(try #require(FileByteSource.contents(of: still))) == expected)
        let movie = try #require(FileByteSource.contents(of: dir + "/" + LivePhotoFixture.movie))
        #expect(try Self.identifier(movie) == nil, "the corpus movie has none")
        // A pair made in the test: exiftool writes the still's, the fixture the movie's key.
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try LivePhotoFixture.writeLivePair(corpus: dir, folder: folder.path, name: "IMG_1", identifier: "A1B2-C3")
        #expect(try Self.identifier(try #require(FileByteSource.contents(of: folder.path + "/IMG_1.HEIC"))) == "A1B2-C3")
        #expect(try Self.identifier(try #require(FileByteSource.contents(of: folder.path + "/IMG_1.MOV"))) == "A1B2-C3")
        let read = try ExternalTools.run(exiftool, ["-s3", "-Apple:MediaGroupUUID", folder.path + "/IMG_1.HEIC"]).stdout
        #expect(read.trimmingCharacters(in: .whitespacesAndNewlines) == "A1B2-C3")
    }

    /// An Apple note: header, byte order, one entry of `type` and `count` at tag 0x0011.
    static func note(_ value: [UInt8], type: UInt16 = 2, order: [UInt8] = Array("MM".utf8), count: UInt32? = nil) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            order == Array("MM".utf8) ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let be = [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return order == Array("MM".utf8) ? be : be.reversed()
        }
        let entryEnd = 16 + 12 + 4
        let length = count ?? UInt32(value.count)
        let field = value.count <= 4 ? value + [UInt8](repeating: 0, count: 4 - value.count) : u32(UInt32(entryEnd))
        return Array("Apple iOS".utf8) + [0, 0, 1] + order + u16(1) + u16(0x0011) + u16(type) + u32(length) + field + [0, 0, 0, 0]
            + (value.count > 4 ? value : [])
    }

    @Test func notesThatAreNotExactlyApplesGiveNothing() {
        let uuid = Array("570F1469-09C7-4E50-9875-05F21D5BD166".utf8) + [0]
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(uuid)) == "570F1469-09C7-4E50-9875-05F21D5BD166")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(uuid, order: Array("II".utf8))) == "570F1469-09C7-4E50-9875-05F21D5BD166")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(Array("AB".utf8))) == "AB", "a short value sits in the entry")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(uuid, type: 7)) == nil, "not ASCII")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(uuid, order: Array("XX".utf8))) == nil, "no byte order")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note(uuid, count: 5000)) == nil, "longer than any identifier")
        #expect(LivePhotoIdentifier.fromMakerNote(Array(Self.note(uuid).dropLast(10))) == nil, "the value runs past the note")
        #expect(LivePhotoIdentifier.fromMakerNote(Self.note([0x41, 0x0A, 0x42])) == nil, "a control byte")
        var foreign = Self.note(uuid)
        foreign[0] = UInt8(ascii: "N")
        #expect(LivePhotoIdentifier.fromMakerNote(foreign) == nil, "not Apple's header")
        #expect(LivePhotoIdentifier.fromMakerNote([]) == nil)
    }
}
