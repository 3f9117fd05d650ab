import CatalogTestSupport
import PhotoCore
import PhotoHashing
import PhotoMetadata
import Testing

@testable import PhotoCatalog

/// Indexes the shared corpus in place (the library is only read) and checks that every
/// file of its manifest is catalogued with the manifest's SHA-256 as fingerprint, or
/// recorded as a failure with a reason; a second run reads nothing.
@Suite("Indexer over the corpus")
struct IndexerCorpusTests {
    @Test(.enabled(if: CorpusLocation.directory != nil, "corpus absent: set PHOTOFS_CORPUS or place it at ../shared/corpus"))
    func everyManifestFileIsCataloguedOrExplained() throws {
        let corpus = try #require(CorpusLocation.directory)
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let library = CatalogLocation.canonicalLibraryPath(corpus)
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite", library: library)
        let analyzer = CountingAnalyzer(FileAnalyzer())
        let indexer = Indexer(catalog: catalog, library: library, analyzer: analyzer)
        let summary = try indexer.run()
        print("corpus: \(summary.new) new, \(summary.failed) failed in \(Int(summary.seconds * 1000)) ms")
        for failure in try catalog.failures() { print("  not catalogued: \(failure.path.display): \(failure.reason)") }

        let assets = Dictionary(try catalog.snapshot().assets.map { ($0.path.display, $0) }, uniquingKeysWith: { a, _ in a })
        let failures = Dictionary(try catalog.failures().map { ($0.path.display, $0.reason) }, uniquingKeysWith: { a, _ in a })
        let manifest = try CorpusLocation.manifest()
        #expect(!manifest.isEmpty)
        for entry in manifest {
            if let asset = assets[entry.path] {
                let record = try #require(try catalog.asset(id: asset.id))
                // The sampled fingerprint of the file, and libcrypto's whole-file hash
                // agrees with the manifest's (exiftool's run's) SHA-256.
                let file = library + Array("/\(entry.path)".utf8)
                let bytes = try #require(FileOps.read(file))
                #expect(record.fingerprint == AssetFingerprint(of: bytes).hex, "\(entry.path)")
                #expect(try FileDigest.sha256Hex(path: file) == entry.sha256, "\(entry.path)")
            } else {
                #expect(failures[entry.path] != nil, "\(entry.path) is neither catalogued nor explained")
            }
        }
        // Everything walked is an asset, a failure or not an asset.
        #expect(summary.new + summary.failed + summary.notAssets == analyzer.count)
        let again = try indexer.run()
        #expect(analyzer.count == summary.new + summary.failed + summary.notAssets)
        #expect(again.unchanged == summary.new + summary.failed + summary.notAssets)
    }
}
