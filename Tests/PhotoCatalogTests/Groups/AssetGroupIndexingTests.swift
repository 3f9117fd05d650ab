import CatalogTestSupport
import Foundation
import Glibc
import PhotoCore
import PhotoMetadata
import TestSupport
import Testing

@testable import PhotoCatalog

/// The catalog's groups follow the library: a Live Photo pair made from corpus files
/// (a still and a movie given one content identifier) and a RAW+JPEG pair are groups once
/// indexed; a part that goes, comes back, moves or changes its identifier takes the group
/// with it; an XMP sidecar that appears or goes beside a photo is seen by the next index.
@Suite("Asset groups kept by the indexer", .serialized)
struct AssetGroupIndexingTests {
    static let identifier = "1F2E3D4C-5B6A-4978-8695-A4B3C2D1E0F9"

    static func id(_ ids: [String: AssetID], _ path: String) throws -> AssetID {
        guard let id = ids[path] else { throw TestFailure("\(path) is not catalogued") }
        return id
    }

    func groups(_ library: TestLibrary) throws -> (AssetGroups, [String: AssetID]) {
        let snapshot = try library.catalog.snapshot()
        let ids = Dictionary(snapshot.assets.map { ($0.path.display, $0.id) }, uniquingKeysWith: { a, _ in a })
        return (try library.catalog.assetGroups(of: snapshot), ids)
    }

    @Test func partsAppearingGoingAndMovingKeepTheGroupsRight() throws {
        guard let corpus = SharedCorpus.directory else {
            try Skip.because("AssetGroupIndexingTests: corpus not found (set PHOTOFS_CORPUS)")
        }
        guard ExternalTools.exiftool != nil else { try Skip.because("AssetGroupIndexingTests: exiftool is missing") }
        let library = try TestLibrary(folders: ["Live", "Raw"], photos: ["Live/other.jpg": "other"], indexed: false)
        let lib = String(decoding: library.path(""), as: UTF8.self)
        try LivePhotoFixture.writeLivePair(corpus: corpus, folder: lib + "Live", name: "IMG_1", identifier: Self.identifier)
        try LivePhotoFixture.writeRawPair(corpus: corpus, folder: lib + "Raw", name: "DSC_1")
        _ = try library.indexer.run()

        var (groups, ids) = try self.groups(library)
        #expect(try library.catalog.contentIdentifiers().count == 2, "the still and the movie both carry it")
        let live = try #require(groups.group(of: try Self.id(ids, "Live/IMG_1.MOV")))
        #expect(live.kind == .live && live.badge == "LIVE")
        #expect(live.members == [ids["Live/IMG_1.HEIC"], ids["Live/IMG_1.MOV"]].compactMap { $0 }, "the still first")
        let raw = try #require(groups.group(of: try Self.id(ids, "Raw/DSC_1.NEF")))
        #expect(raw.kind == .rawJPEG && raw.members == [ids["Raw/DSC_1.JPG"], ids["Raw/DSC_1.NEF"]].compactMap { $0 })
        #expect(groups.group(of: try Self.id(ids, "Live/other.jpg")) == nil)
        #expect(groups.groups.count == 2)

        // The movie goes: no group; it comes back: the group again.
        let away = library.dir.string + "/IMG_1.MOV.away"
        rename(lib + "Live/IMG_1.MOV", away)
        _ = try library.indexer.run()
        (groups, ids) = try self.groups(library)
        #expect(groups.group(of: try Self.id(ids, "Live/IMG_1.HEIC")) == nil)
        #expect(try library.catalog.contentIdentifiers().count == 1, "the gone movie's identifier went with its row")
        rename(away, lib + "Live/IMG_1.MOV")
        _ = try library.indexer.run()
        (groups, _) = try self.groups(library)
        #expect(groups.groups.map(\.kind).sorted { $0.rawValue < $1.rawValue } == [.live, .rawJPEG])

        // Both parts moved to another folder (moves by inode: not read again): still a group.
        mkdir(lib + "Moved", 0o755)
        rename(lib + "Live/IMG_1.HEIC", lib + "Moved/IMG_1.HEIC")
        rename(lib + "Live/IMG_1.MOV", lib + "Moved/IMG_1.MOV")
        let moved = try library.indexer.run()
        #expect(moved.moved == 2, "\(moved)")
        (groups, ids) = try self.groups(library)
        #expect(groups.group(of: try Self.id(ids, "Moved/IMG_1.HEIC"))?.members.count == 2)
        // Only the still moved back: the parts are in different folders, so no group.
        rename(lib + "Moved/IMG_1.HEIC", lib + "Live/IMG_1.HEIC")
        _ = try library.indexer.run()
        (groups, ids) = try self.groups(library)
        #expect(groups.group(of: try Self.id(ids, "Live/IMG_1.HEIC")) == nil)
        rename(lib + "Moved/IMG_1.MOV", lib + "Live/IMG_1.MOV")

        // The movie rewritten with another identifier: no longer the still's partner.
        let movie = try LivePhotoFixture.movieWithIdentifier(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: corpus + "/" + LivePhotoFixture.movie))), identifier: "OTHER")
        try Data(movie).write(to: URL(fileURLWithPath: lib + "Live/IMG_1.MOV"))
        _ = try library.indexer.run()
        (groups, ids) = try self.groups(library)
        #expect(groups.group(of: try Self.id(ids, "Live/IMG_1.HEIC")) == nil)
        #expect(groups.groups.map(\.kind) == [.rawJPEG])

        // The JPEG of the pair goes.
        unlink(lib + "Raw/DSC_1.JPG")
        _ = try library.indexer.run()
        (groups, _) = try self.groups(library)
        #expect(groups.isEmpty)
    }

    @Test func aSidecarThatAppearsOrGoesIsSeenByTheNextIndex() throws {
        let library = try TestLibrary(folders: ["Trip"], photos: ["Trip/IMG_2.jpg": "x", "Trip/IMG_3.jpg": "y"])
        func located(_ path: String) throws -> Bool {
            let asset = try #require(try library.catalog.asset(at: LibraryPath(path))).asset
            return try Filter("has:location").matches(asset)
        }
        #expect(try located("Trip/IMG_2.jpg") == false)
        let packet = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N" exif:GPSLongitude="2,17.6E"/>\
            </rdf:RDF></x:xmpmeta>
            """
        for sidecar in ["Trip/IMG_2.xmp", "Trip/IMG_2.jpg.xmp"] {
            try FileOps.write(Array(packet.utf8), to: library.path(sidecar))
            let summary = try library.indexer.run()
            #expect(summary.touched == 1, "the photo is read again, the other one is not: \(summary)")
            #expect(try located("Trip/IMG_2.jpg"), "\(sidecar)")
            #expect(try located("Trip/IMG_3.jpg") == false)
            unlink(String(decoding: library.path(sidecar), as: UTF8.self))
            _ = try library.indexer.run()
            #expect(try located("Trip/IMG_2.jpg") == false, "\(sidecar) went")
        }
    }
}
