import Foundation
import Glibc
import Testing

@testable import PhotoImaging

/// `photofs thumbnails` on a generated library, through the shipped binary: every photo
/// gets a thumbnail at the standard's path, a second run finds them fresh, bad options are
/// usage errors.
@Suite(.serialized) struct ThumbnailsCommandTests {
    @Test func makesThenKeepsThumbnailsOfAGeneratedLibrary() throws {
        guard Fixture.photofsBuilt else { return }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let env = ["XDG_DATA_HOME=\(dir)/data", "XDG_CACHE_HOME=\(dir)/cache", "HOME=\(dir)"]
        let library = dir + "/library"
        func photofs(_ arguments: [String]) throws -> (status: Int32, output: String) {
            try Fixture.run("/usr/bin/env", env + [Fixture.photofs] + arguments)
        }
        try #require(try photofs(["generate", library, "--count", "6"]).status == 0)
        try #require(try photofs(["index", "--quiet", library]).status == 0)
        let first = try photofs(["thumbnails", "--size", "normal", library])
        #expect(first.status == 0)
        #expect(first.output.hasPrefix("6 made ("), "\(first.output)")
        #expect(first.output.contains("0 failed"))
        let files = try FileManager.default.subpathsOfDirectory(atPath: library).filter { $0.hasSuffix(".jpg") }
        #expect(!files.isEmpty)
        let cache = ThumbnailCache(root: dir + "/cache/thumbnails")
        for file in files {
            let source = URL(fileURLWithPath: library + "/" + file).resolvingSymlinksInPath().path
            let png = Fixture.read(cache.path(uri: FileURI.of(absolutePath: Array(source.utf8)), size: .normal))
            #expect(max(try PNGCodec.decode(png).width, try PNGCodec.decode(png).height) == 128, "\(file)")
        }
        let second = try photofs(["thumbnails", "--size", "normal", library])
        #expect(second.output.hasPrefix("0 made (0 from embedded previews), 6 already fresh"), "\(second.output)")
        #expect(try photofs(["thumbnails", "--size", "huge", library]).status == 2)
        #expect(try photofs(["thumbnails", "--jobs", "0", library]).status == 2)
        #expect(try photofs(["thumbnails", dir + "/elsewhere"]).status == 4)
    }
}
