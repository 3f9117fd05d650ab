import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoMetadata
import Synchronization
import Testing

@testable import PhotoCatalog

/// The indexer looks for XMP sidecars only in folders whose listing holds a `*.xmp` name
/// (the walk saw every name), and a sidecar there still places its photo.
@Suite struct IndexerSidecarTests {
    /// Forwards to `FileAnalyzer` and records what it was told about each folder.
    final class RecordingAnalyzer: AssetAnalyzing {
        let told = Mutex<[String: Bool]>([:])

        func analyze(absolutePath: [UInt8]) throws(AnalysisError) -> AssetAnalysis {
            try analyze(absolutePath: absolutePath, folderHasXMP: true)
        }

        func analyze(absolutePath: [UInt8], folderHasXMP: Bool) throws(AnalysisError) -> AssetAnalysis {
            told.withLock { $0[String(decoding: absolutePath, as: UTF8.self)] = folderHasXMP }
            return try FileAnalyzer().analyze(absolutePath: absolutePath, folderHasXMP: folderHasXMP)
        }
    }

    static let placingPacket = Array(
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
        <rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.5N" \
        exif:GPSLongitude="2,17.7E"/></rdf:RDF></x:xmpmeta>
        """.utf8)

    @Test func sidecarsAreLookedForOnlyWhereTheFolderHasXMP() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lib = dir.child("lib")
        for folder in ["a", "b", "c"] { try FileOps.makeDirectories(dir.child("lib/" + folder)) }
        for photo in ["a/IMG.jpg", "b/IMG.jpg", "c/IMG.jpg", "root.jpg"] {
            try FileOps.write(TinyJPEG.bytes(comment: photo), to: dir.child("lib/" + photo))
        }
        try FileOps.write(Self.placingPacket, to: dir.child("lib/a/IMG.xmp"))
        try FileOps.write(Self.placingPacket, to: dir.child("lib/c/IMG.jpg.xmp"))
        let catalog = try Catalog.open(at: dir.string + "/catalog/c.sqlite", library: lib)
        let analyzer = RecordingAnalyzer()
        _ = try Indexer(catalog: catalog, library: lib, analyzer: analyzer, batchSize: 2).run()

        let told = analyzer.told.withLock { $0 }
        #expect(told[dir.string + "/lib/a/IMG.jpg"] == true)
        #expect(told[dir.string + "/lib/c/IMG.jpg"] == true)
        #expect(told[dir.string + "/lib/b/IMG.jpg"] == false)
        #expect(told[dir.string + "/lib/root.jpg"] == false)
        for (photo, placed) in [("a/IMG.jpg", true), ("c/IMG.jpg", true), ("b/IMG.jpg", false), ("root.jpg", false)] {
            let record = try #require(try catalog.asset(at: LibraryPath(photo)))
            #expect(record.asset.metadata.locationSources.contains(.sidecar) == placed, "\(photo)")
        }
    }

    @Test(arguments: [("a/b/IMG.jpg", "a/b"), ("IMG.jpg", ""), ("x/y.xmp", "x")])
    func folderOfAPath(path: String, folder: String) {
        #expect(Indexer.folder(of: Array(path.utf8)) == Array(folder.utf8))
    }
}
