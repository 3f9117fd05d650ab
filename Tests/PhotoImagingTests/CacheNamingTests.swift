import Testing

@testable import PhotoImaging

/// The names the freedesktop cache uses: MD5 of the URI, and URIs escaped as GLib does.
@Suite struct CacheNamingTests {
    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
    ])
    func md5MatchesRFC1321(_ input: String, _ digest: String) {
        #expect(MD5.hex(Array(input.utf8)) == digest)
    }

    @Test func uriEscapesLikeGLib() {
        #expect(FileURI.of(absolutePath: Array("/home/me/Pictures/IMG_0001.jpg".utf8)) == "file:///home/me/Pictures/IMG_0001.jpg")
        #expect(FileURI.of(absolutePath: Array("/a b/c#d?e%f".utf8)) == "file:///a%20b/c%23d%3Fe%25f")
        #expect(FileURI.of(absolutePath: Array("/été".utf8)) == "file:///%C3%A9t%C3%A9")
        #expect(FileURI.of(absolutePath: [0x2F, 0xFF, 0x0A]) == "file:///%FF%0A")
        #expect(FileURI.of(absolutePath: Array("/x/!$&'()*+,-.:=@_~".utf8)) == "file:///x/!$&'()*+,-.:=@_~")
    }

    @Test func cachePathFollowsTheStandard() {
        let cache = ThumbnailCache(environment: ["XDG_CACHE_HOME": "/c", "HOME": "/h"])
        #expect(cache.root == "/c/thumbnails")
        #expect(cache.path(uri: "file:///x.jpg", size: .large) == "/c/thumbnails/large/" + MD5.hex(Array("file:///x.jpg".utf8)) + ".png")
        #expect(ThumbnailCache(environment: ["HOME": "/h"]).root == "/h/.cache/thumbnails")
        #expect(ThumbnailCache(environment: ["HOME": "/h", "XDG_CACHE_HOME": "relative"]).root == "/h/.cache/thumbnails")
    }
}
