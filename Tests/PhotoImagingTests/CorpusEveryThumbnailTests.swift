import Foundation
import Glibc
import MediaFormats
import TestSupport
import Testing

@testable import PhotoImaging

/// Every image and video of the shared corpus, through the shipped decoder processes: each
/// gets a real thumbnail (decoded pixels or a video's poster frame) or, when no decoder
/// handles it, a typed placeholder naming the file (for a video, the drawn frame with its
/// duration), never a bare identifier. GIF, BMP and TIFF files that ImageMagick decodes and
/// videos of which the ffmpeg tool makes a frame must get real pictures. Prints the counts and which
/// files each decoder refused.
@Suite(.serialized) struct CorpusEveryThumbnailTests {
    @Test func everyFileGetsAPictureOrATypedPlaceholder() throws {
        guard let corpus = Corpus.directory, Fixture.photofsBuilt, let convert = Fixture.tool("convert"),
            let ffmpeg = Fixture.tool("ffmpeg")
        else { try Skip.because("a prerequisite is missing (the corpus, the built photofs, ImageMagick's convert or ffmpeg)") }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let service = ThumbnailService(
            pool: DecoderPool(executable: Fixture.photofs, size: 2, timeLimit: 60), cache: ThumbnailCache(root: dir + "/thumbnails"))
        let root = URL(fileURLWithPath: corpus).resolvingSymlinksInPath().path
        let files = (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { !$0.hasSuffix(".json") && !$0.hasSuffix(".md") && !$0.hasPrefix(".") }
            .filter {
                var info = stat(); return stat(root + "/" + $0, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
            }
            .sorted()
        try #require(files.count > 100)
        var real: [ThumbnailOrigin: Int] = [:]
        var placeholders: [String: [String]] = [:]
        var mustBeReal: [String] = []
        for relative in files {
            let path = root + "/" + relative
            let format = (try? FileBytes(path: Array(path.utf8))).flatMap { MediaSniffer.format(of: $0) }
            let name = String(relative.split(separator: "/").last ?? "")
            do throws(ImagingError) {
                let made = try service.thumbnail(forFile: Array(path.utf8), size: .normal)
                let image = try PNGCodec.decode(made.png)
                #expect(image.width > 0 && image.height > 0 && max(image.width, image.height) <= 128, "\(relative)")
                if made.origin == .videoPlaceholder {
                    // The drawn frame with the duration: the typed placeholder of a video.
                    placeholders["video placeholder: no frame decodes", default: []].append(relative)
                    if Self.ffmpegDecodesAFrame(path, ffmpeg: ffmpeg, scratch: dir) { mustBeReal.append(relative) }
                } else {
                    real[made.origin ?? .decoded, default: 0] += 1
                }
            } catch {
                let label = ThumbnailPlaceholder.typeLabel(format: format, name: name)
                let svg = String(decoding: ThumbnailPlaceholder.svg(name: name, typeLabel: label), as: UTF8.self)
                #expect(
                    svg.contains(TextEscaping.xml(label)) && svg.contains(TextEscaping.xml(String(name.prefix(13))))
                )
                #expect(!label.isEmpty && label != "file" || format == nil, "\(relative): placeholder without a type")
                placeholders["\(label): \(error)", default: []].append(relative)
                // What photofs now decodes must not fall back when another reader decodes it.
                let decodedHere: Set<MediaFormat> = [.gif, .bmp, .tiff, .bigTIFF]
                if let format, decodedHere.contains(format),
                    (try? Fixture.run(convert, [path + "[0]", "-resize", "16x16", "ppm:-"]))?.status == 0
                {
                    mustBeReal.append(relative)
                }
            }
        }
        let realCount = real.values.reduce(0, +)
        let placeholderCount = placeholders.values.map(\.count).reduce(0, +)
        print("corpus thumbnails: \(files.count) files, \(realCount) real thumbnails, \(placeholderCount) typed placeholders")
        for origin in ThumbnailOrigin.allCases where real[origin] != nil { print("  real, \(origin): \(real[origin]!)") }
        for (reason, paths) in placeholders.sorted(by: { $0.key < $1.key }) {
            print("  placeholder (\(reason)): \(paths.joined(separator: ", "))")
        }
        #expect(realCount + placeholderCount == files.count)
        #expect(mustBeReal.isEmpty, "fell back to a placeholder although another reader decodes them: \(mustBeReal)")
        #expect((real[.videoFrame] ?? 0) >= 2, "video poster frames: \(real[.videoFrame] ?? 0)")
    }

    /// Whether the ffmpeg tool (the same libraries, their own reader) makes a frame of `path`.
    static func ffmpegDecodesAFrame(_ path: String, ffmpeg: String, scratch: String) -> Bool {
        let frame = scratch + "/ffmpeg-frame.png"
        defer { unlink(frame) }
        let status = (try? Fixture.run(ffmpeg, ["-v", "quiet", "-y", "-i", path, "-frames:v", "1", frame]))?.status
        var info = stat()
        return status == 0 && stat(frame, &info) == 0 && info.st_size > 0
    }

    /// A placeholder names the file and its type and cannot be turned into markup by a name.
    @Test func aPlaceholderNamesItsFileSafely() {
        let svg = String(decoding: ThumbnailPlaceholder.svg(name: "a<b>&\"c\u{1}.gif", typeLabel: "GIF image"), as: UTF8.self)
        #expect(svg.contains("a&lt;b&gt;&amp;&quot;c.gif"))
        #expect(svg.contains("GIF image"))
        #expect(!svg.contains("<b>"))
        #expect(ThumbnailPlaceholder.typeLabel(format: .mov, name: "x.mov") == "MOV video")
        #expect(ThumbnailPlaceholder.typeLabel(format: nil, name: "clip.mkv") == "MKV file")
    }
}
