import Foundation
import MediaFormats
import PhotoCore
import PhotoMetadata
import TestSupport
import Testing

/// A photo's XMP sidecar (`IMG.xmp` or `IMG.jpg.xmp`) counts for `has:location` when it
/// places the photo; the sidecar itself is not media, so no view ever serves it. The
/// sidecar is a real packet: the XMP of the corpus MP4 that carries `exif:GPSLatitude`.
@Suite struct SidecarLocationTests {
    static let still = "exif-samples/Canon_40D.jpg"

    /// The corpus video's XMP packet, from `<?xpacket begin` to its end marker.
    static func corpusPacket(_ dir: String) throws -> [UInt8] {
        let video = [UInt8](try #require(FileManager.default.contents(atPath: dir + "/aosp-mediaprovider/test_video_xmp.mp4")))
        let text = String(decoding: video, as: UTF8.self)
        let start = try #require(text.range(of: "<?xpacket begin"))
        let end = try #require(text.range(of: "</x:xmpmeta>"))
        return Array(text[start.lowerBound..<end.upperBound].utf8)
    }

    @Test(arguments: ["IMG.xmp", "IMG.jpg.xmp"])
    func aSidecarsPositionCountsForHasLocation(sidecar: String) throws {
        guard let dir = SharedCorpus.directory else { try Skip.because("SidecarLocationTests: corpus not found (set PHOTOFS_CORPUS)") }
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let photo = folder.appendingPathComponent("IMG.jpg").path
        try FileManager.default.copyItem(atPath: dir + "/" + Self.still, toPath: photo)
        func hasLocation() throws -> (Bool, LocationSources) {
            let analysis = try FileAnalyzer().analyze(absolutePath: Array(photo.utf8))
            let asset = Asset(
                id: try #require(AssetID(number: 1)), path: LibraryPath("IMG.jpg"), size: 1, mtimeNanoseconds: 0, inode: 1,
                metadata: analysis.metadata, redaction: analysis.redaction)
            return (try Filter("has:location").matches(asset), analysis.metadata.locationSources)
        }
        #expect(try hasLocation().0 == false, "the corpus still has no position of its own")
        let sidecarPath = folder.appendingPathComponent(sidecar).path
        try Data(try Self.corpusPacket(dir)).write(to: URL(fileURLWithPath: sidecarPath))
        let (located, sources) = try hasLocation()
        #expect(located)
        #expect(sources.contains(.sidecar) && sources.names.contains("XMP sidecar"))
        // A sidecar that says nothing about a place does not place the photo.
        FileManager.default.createFile(
            atPath: sidecarPath,
            contents: Data(
                "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\"/></x:xmpmeta>"
                    .utf8))
        #expect(try hasLocation().0 == false)
        // The sidecar itself is not media: it is never catalogued, so no view serves it.
        #expect(throws: AnalysisError.notMedia) { try FileAnalyzer().analyze(absolutePath: Array(sidecarPath.utf8)) }
    }
}
