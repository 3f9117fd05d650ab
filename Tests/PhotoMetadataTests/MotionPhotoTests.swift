import Foundation
import MediaFormats
import PhotoCore
import PhotoMetadata
import TestSupport
import Testing

/// Motion photos made in the test from real parts: a corpus JPEG without a position and
/// the corpus MP4 whose `©xyz` atom holds `+37.4217-122.0834/`, put together the way
/// Google (XMP `Container:Directory`, the video appended) and Samsung (the video in the
/// `MotionPhoto_Data` block of a SEF trailer) do. The analyzer finds the video's position
/// (`has:location`, "located in"); the strip view keeps no byte of it (exiftool `-ee` finds
/// no GPS in the file, nor in the video cut out of it); the coarse view rounds it; the
/// still's bytes and decoded pixels are those of the original.
@Suite struct MotionPhotoTests {
    static let still = "exif-samples/Canon_40D.jpg"
    static let video = "aosp-mediaprovider/test_video_gps.mp4"
    static let position = "+37.4217-122.0834/"
    static let rounded = "+37.42-122.08/"

    enum Layout: String, CaseIterable { case google, samsung }

    struct MotionPhoto {
        var bytes: [UInt8]
        /// Where the still ends (after its EOI) and where the video lies.
        var stillEnd: Int
        var videoRange: Range<Int>
    }

    /// Google: an APP1 XMP segment after SOI names the video's length; the video follows the EOI.
    static func google(still: [UInt8], video: [UInt8]) -> MotionPhoto {
        let xmp = """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\
            <rdf:Description rdf:about="" xmlns:GCamera="http://ns.google.com/photos/1.0/camera/" \
            xmlns:Container="http://ns.google.com/photos/1.0/container/" \
            xmlns:Item="http://ns.google.com/photos/1.0/container/item/" GCamera:MotionPhoto="1" GCamera:MotionPhotoVersion="1" \
            GCamera:MotionPhotoPresentationTimestampUs="0"><Container:Directory><rdf:Seq>\
            <rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="image/jpeg" Item:Semantic="Primary" Item:Length="0" \
            Item:Padding="0"/></rdf:li><rdf:li rdf:parseType="Resource"><Container:Item Item:Mime="video/mp4" \
            Item:Semantic="MotionPhoto" Item:Length="\(video.count)" Item:Padding="0"/></rdf:li></rdf:Seq></Container:Directory>\
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """
        let payload = Array("http://ns.adobe.com/xap/1.0/\0".utf8) + Array(xmp.utf8)
        let length = payload.count + 2
        let segment: [UInt8] = [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        let image = Array(still[0..<2]) + segment + Array(still[2...])
        return MotionPhoto(bytes: image + video, stillEnd: image.count, videoRange: image.count..<(image.count + video.count))
    }

    /// Samsung: after the EOI a SEF block `MotionPhoto_Data` holding the video, the SEFH
    /// directory naming it, the directory's length and `SEFT`.
    static func samsung(still: [UInt8], video: [UInt8]) -> MotionPhoto {
        func le32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        let name = Array("MotionPhoto_Data".utf8)
        let block: [UInt8] = [0, 0, 0x30, 0x0A] + le32(name.count) + name + video
        let directory: [UInt8] = Array("SEFH".utf8) + le32(106) + le32(1) + [0, 0, 0x30, 0x0A] + le32(block.count) + le32(block.count)
        let bytes = still + block + directory + le32(directory.count) + Array("SEFT".utf8)
        let videoStart = still.count + 8 + name.count
        return MotionPhoto(bytes: bytes, stillEnd: still.count, videoRange: videoStart..<(videoStart + video.count))
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return (0...(bytes.count - needle.count)).contains {
            bytes[$0] == needle[0] && bytes[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    /// The GPS tags exiftool `-ee` reads in a file (but a version number, which places nothing).
    static func gpsTags(_ path: String, exiftool: String) throws -> [String] {
        let out = try ExternalTools.run(exiftool, ["-ee", "-a", "-G1", "-s", "-n", path]).stdout
        return out.split(separator: "\n").map(String.init).filter { $0.contains("GPS") && !$0.contains("GPSVersionID") }
    }

    /// Decoded pixels of the first image, as ImageMagick reads it.
    static func pixels(_ path: String) throws -> String? {
        let result = try ExternalTools.run("/usr/bin/env", ["convert", path + "[0]", "-depth", "8", "rgba:-"])
        guard result.status == 0 else { return nil }
        return String(result.stdout.utf8.count) + ":" + String(result.stdout.hashValue)
    }

    @Test(arguments: Layout.allCases)
    func theAppendedVideosPositionIsFoundStrippedAndRounded(layout: Layout) throws {
        guard let dir = SharedCorpus.directory else { try Skip.because("MotionPhotoTests: corpus not found (set PHOTOFS_CORPUS)") }
        guard let exiftool = ExternalTools.exiftool else { try Skip.because("MotionPhotoTests: exiftool not installed") }
        let still = [UInt8](try #require(FileManager.default.contents(atPath: dir + "/" + Self.still)))
        let video = [UInt8](try #require(FileManager.default.contents(atPath: dir + "/" + Self.video)))
        let photo = layout == .google ? Self.google(still: still, video: video) : Self.samsung(still: still, video: video)
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ bytes: some Collection<UInt8>) throws -> String {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
        let originalPath = try write("original.jpg", photo.bytes)
        // The parts are what they should be: the video cut out of the file holds the position.
        #expect(!(try Self.gpsTags(try write("original-video.mp4", photo.bytes[photo.videoRange]), exiftool: exiftool)).isEmpty)
        #expect(Self.contains(photo.bytes, Self.position))

        let analysis = try FileAnalyzer().analyze(absolutePath: Array(originalPath.utf8))
        let asset = Asset(
            id: try #require(AssetID(number: 1)), path: LibraryPath("motion.jpg"), size: Int64(photo.bytes.count), mtimeNanoseconds: 0,
            inode: 1, metadata: analysis.metadata, redaction: analysis.redaction)
        #expect(try Filter("has:location").matches(asset), "\(layout): has:location")
        #expect(analysis.metadata.locationSources.contains(.appendedVideo), "\(layout): \(analysis.metadata.locationSources.names)")
        #expect(analysis.metadata.locationSources.names.contains("video appended after the image (motion photo)"))
        let location = try #require(analysis.metadata.location)
        #expect(abs(location.latitude - 37.4217) < 0.001 && abs(location.longitude + 122.0834) < 0.001)

        let originalPixels = try Self.pixels(write("still.jpg", still))
        for policy in [LocationPolicy.strip, .coarse] {
            for metadata in [MetadataPolicy.keep, .private] {
                let label = "\(layout) \(policy) \(metadata)"
                var served = photo.bytes
                #expect(analysis.redaction.plan(for: policy, metadata: metadata).apply(to: &served, at: 0), "\(label): withheld")
                #expect(served.count == photo.bytes.count)
                // The still is untouched when metadata is kept; its pixels are the same in every view.
                if metadata == .keep { #expect(served[..<photo.stillEnd].elementsEqual(photo.bytes[..<photo.stillEnd]), "\(label)") }
                let servedPath = try write("\(policy)-\(metadata).jpg", served)
                if let originalPixels { #expect(try Self.pixels(servedPath) == originalPixels, "\(label): pixels changed") }
                let servedVideo = try write("\(policy)-\(metadata).mp4", served[photo.videoRange])
                #expect(!Self.contains(served, Self.position), "\(label): the position survives")
                if policy == .strip {
                    #expect(try Self.gpsTags(servedPath, exiftool: exiftool).isEmpty, "\(label)")
                    #expect(try Self.gpsTags(servedVideo, exiftool: exiftool).isEmpty, "\(label): GPS in the video")
                } else {
                    #expect(Self.contains(served, Self.rounded), "\(label): not rounded")
                    let tags = try Self.gpsTags(servedVideo, exiftool: exiftool)
                    #expect(tags.contains { $0.contains("37.42 -122.08") }, "\(label): \(tags)")
                }
            }
        }
    }

    /// A PNG and a WebP with the video appended after their last chunk, and a HEIC with it in
    /// a top-level `mpvd` box (Samsung's HEIC motion photos): found, and gone under strip.
    @Test(arguments: [
        ("metadata-extractor-images/mspaint-8x10.png", false), ("exiftool/RIFF.webp", false), ("exif-samples/samplefilehub.heif", true),
    ])
    func otherStillsCarryingAVideo(still path: String, inBox: Bool) throws {
        guard let dir = SharedCorpus.directory else { try Skip.because("MotionPhotoTests: corpus not found (set PHOTOFS_CORPUS)") }
        let still = [UInt8](try #require(FileManager.default.contents(atPath: dir + "/" + path)))
        let video = [UInt8](try #require(FileManager.default.contents(atPath: dir + "/" + Self.video)))
        let size = video.count + 8
        let bytes =
            inBox
            ? still + [UInt8(size >> 24), UInt8((size >> 16) & 0xFF), UInt8((size >> 8) & 0xFF), UInt8(size & 0xFF)] + Array("mpvd".utf8)
                + video
            : still + video
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("motion").path
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let analysis = try FileAnalyzer().analyze(absolutePath: Array(file.utf8))
        #expect(analysis.metadata.locationSources.contains(.appendedVideo), "\(path): \(analysis.metadata.locationSources.names)")
        var served = bytes
        #expect(analysis.redaction.strip.apply(to: &served, at: 0), "\(path): withheld")
        #expect(!Self.contains(served, Self.position), "\(path): the position survives")
        #expect(served[..<still.count].elementsEqual(still[...]), "\(path): the still changed")
    }
}
