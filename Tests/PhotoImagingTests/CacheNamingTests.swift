import Foundation
import PhotoCore
import Testing

@testable import PhotoImaging

/// The names the freedesktop cache uses: MD5 of the URI, and URIs escaped as GLib does.
@Suite struct CacheNamingTests {
    @Test func fileNameIsTheMD5OfTheURIInLowerCaseHex() {
        // md5("file:///home/jens/photos/me.png"), the standard's own example.
        let cache = ThumbnailCache(root: "/t")
        #expect(cache.path(uri: "file:///home/jens/photos/me.png", size: .normal) == "/t/normal/c6ee772d9e49320e97ec29a7eb5b1697.png")
    }

    @Test func uriEscapesLikeGLib() {
        #expect(FileURI.of(absolutePath: Array("/home/me/Pictures/IMG_0001.jpg".utf8)) == "file:///home/me/Pictures/IMG_0001.jpg")
        #expect(FileURI.of(absolutePath: Array("/a b/c#d?e%f".utf8)) == "file:///a%20b/c%23d%3Fe%25f")
        #expect(FileURI.of(absolutePath: Array("/été".utf8)) == "file:///%C3%A9t%C3%A9")
        #expect(FileURI.of(absolutePath: [0x2F, 0xFF, 0x0A]) == "file:///%FF%0A")
        #expect(FileURI.of(absolutePath: Array("/x/!$&'()*+,-.:=@_~".utf8)) == "file:///x/!$&'()*+,-.:=@_~")
    }

    /// Every printable ASCII byte and some UTF-8, escaped as GLib itself does (the names file
    /// managers look for), when Python's GLib bindings are installed.
    @Test func uriMatchesGLibItself() throws {
        guard try Fixture.run("/usr/bin/python3", ["-c", "from gi.repository import GLib"]).status == 0 else {
            print("skipping: Python's GLib bindings (python3-gi) are not installed")
            return
        }
        let paths = [
            "/" + (32..<127).map { String(UnicodeScalar(UInt8($0))) }.joined().replacingOccurrences(of: "/", with: ""), "/été/日本/x y.jpg",
        ]
        for path in paths {
            let glib = try Fixture.run(
                "/usr/bin/python3",
                ["-c", "import sys; from gi.repository import GLib; print(GLib.filename_to_uri(sys.argv[1], None))", path])
            #expect(glib.output.trimmingCharacters(in: .newlines) == FileURI.of(absolutePath: Array(path.utf8)))
        }
    }

    @Test func cachePathFollowsTheStandard() {
        let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
        #expect(cache.root == "/c/thumbnails")
        #expect(
            cache.path(uri: "file:///x.jpg", size: .large) == "/c/thumbnails/large/"
                + ThumbnailCache.hex(MD5.hash(Array("file:///x.jpg".utf8))) + ".png")
        #expect(ThumbnailCache(environment: ["HOME": "/h"]).root == "/h/.cache/thumbnails")
        #expect(ThumbnailCache(environment: ["HOME": "/h", "XDG_CACHE_HOME": "relative"]).root == "/h/.cache/thumbnails")
    }
}
