import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoImaging

/// `photofs index` and `photofs thumbnails` over the shared corpus, through the shipped
/// binary and its decoder processes: every asset ImageMagick can decode (in the formats
/// photofs decodes) and every video gets a thumbnail at the standard's path, and no
/// thumbnail carries anything but its pixels, Thumb::URI, Thumb::MTime and the file version
/// photofs checks freshness by (exiftool).
@Suite(.serialized) struct CorpusThumbnailTests {
    /// What exiftool may report of a thumbnail: the file system, the PNG header and the
    /// two text chunks.
    static let allowedTags: Set<String> = [
        "SourceFile", "ExifTool:ExifToolVersion", "PNG:ImageWidth", "PNG:ImageHeight", "PNG:BitDepth", "PNG:ColorType", "PNG:Compression",
        "PNG:Filter", "PNG:Interlace", "PNG:ThumbURI", "PNG:ThumbMTime", "PNG:X-PhotoFSVersion", "Composite:ImageSize",
        "Composite:Megapixels",
    ]

    @Test func everyDecodableAssetGetsAThumbnailWithoutMetadata() throws {
        guard let corpus = Corpus.directory, Fixture.photofsBuilt, Fixture.tool("exiftool") != nil,
            let convert = Fixture.tool("convert")
        else { try Skip.because("a prerequisite is missing (the line above says which)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let env = ["XDG_DATA_HOME=\(dir)/data", "XDG_CACHE_HOME=\(dir)/cache", "HOME=\(dir)"]
        let catalog = dir + "/corpus.sqlite"
        try #require(
            try Fixture.run("/usr/bin/env", env + [Fixture.photofs, "index", "--quiet", "--catalog", catalog, corpus]).status == 0)
        let made = try Fixture.run("/usr/bin/env", env + [Fixture.photofs, "thumbnails", "--catalog", catalog, "--size", "large"])
        #expect(made.status == 0)
        let listing = try Fixture.run("/usr/bin/env", env + [Fixture.photofs, "ls", "--json", "--catalog", catalog])
        let assets = (try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]]) ?? []
        try #require(assets.count > 50)
        let cache = ThumbnailCache(root: dir + "/cache/thumbnails")
        let root = URL(fileURLWithPath: corpus).resolvingSymlinksInPath().path
        var expected: [String] = []
        var thumbnails: [String: String] = [:]
        for asset in assets {
            guard let relative = asset["path"] as? String, let mime = asset["mime"] as? String else { continue }
            let source = root + "/" + relative
            let thumbnail = cache.path(uri: FileURI.of(absolutePath: Array(source.utf8)), size: .large)
            if access(thumbnail, F_OK) == 0 { thumbnails[relative] = thumbnail }
            let decodedHere = [
                "image/jpeg", "image/png", "image/webp", "image/heic", "image/heif", "image/avif", "image/gif", "image/bmp", "image/tiff",
            ].contains(mime)
            if mime.hasPrefix("video/") {
                expected.append(relative)
            } else if decodedHere, try Fixture.run(convert, [source + "[0]", "-resize", "16x16", "ppm:-"]).status == 0 {
                expected.append(relative)
            }
        }
        try #require(expected.count > 40)
        let missing = expected.filter { thumbnails[$0] == nil }
        #expect(missing.isEmpty, "no thumbnail for \(missing)")
        let readings = try ExifToolReading.read(Array(thumbnails.values))
        #expect(readings.count == thumbnails.count)
        for (relative, path) in thumbnails {
            let tags = readings[path] ?? [:]
            let extra = tags.keys.filter { !Self.allowedTags.contains($0) && !$0.hasPrefix("System:") && !$0.hasPrefix("File:") }
            #expect(extra.isEmpty, "\(relative): thumbnail carries \(extra.sorted())")
            #expect(tags["PNG:ThumbURI"] as? String == FileURI.of(absolutePath: Array((root + "/" + relative).utf8)))
            let width = tags["PNG:ImageWidth"] as? Int ?? 0
            let height = tags["PNG:ImageHeight"] as? Int ?? 0
            #expect(width > 0 && height > 0 && max(width, height) <= 256, "\(relative): \(width)x\(height)")
        }
        print("corpus thumbnails: \(thumbnails.count) made for \(assets.count) assets, \(expected.count) required")
    }
}
