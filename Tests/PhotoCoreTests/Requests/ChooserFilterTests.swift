import PhotoCore
import Testing

/// Which file dialogs are photo picks: filters that let through only photos and videos.
@Suite("File dialog filters")
struct ChooserFilterTests {
    static func filter(_ patterns: [ChooserFilter.Pattern]) -> ChooserFilter { ChooserFilter(name: "f", patterns: patterns) }

    static let cases: [(patterns: [ChooserFilter.Pattern], media: MediaSelector?)] = [
        ([.mime("image/*")], .kind(.image)),
        ([.mime("IMAGE/JPEG"), .mime("image/heic")], .kind(.image)),
        ([.mime("video/*")], .kind(.video)),
        ([.mime("image/png"), .mime("video/quicktime")], .any([.kind(.image), .kind(.video)])),
        ([.glob("*.jpg"), .glob("*.JPEG"), .glob("*.[hH][eE][iI][cC]")], .kind(.image)),
        ([.glob("*.[mM][pP]4")], .kind(.video)),
        ([.glob("*.cr3"), .mime("image/x-canon-cr3")], .kind(.image)),
        // Anything that is not a photo or video photofs serves makes it an ordinary dialog.
        ([.mime("image/svg+xml")], nil),
        ([.mime("image/*"), .mime("application/pdf")], nil),
        ([.glob("*")], nil),
        ([.glob("*.jpg"), .glob("*.txt")], nil),
        ([.glob("photo.jpg")], nil),
        ([.glob("*.[jJ][pP]G]")], nil),
        ([.glob("*.[ab]")], nil),
        ([], nil),
    ]

    @Test(arguments: cases.indices) func oneFilter(_ index: Int) {
        let (patterns, media) = Self.cases[index]
        #expect(PhotoDialog.media(filters: [Self.filter(patterns)], current: nil) == media, "\(patterns)")
        #expect(PhotoDialog.media(filters: [], current: Self.filter(patterns)) == media, "as the current filter: \(patterns)")
    }

    @Test func everyFilterOrTheCurrentOneDecides() {
        let images = Self.filter([.mime("image/*")])
        let videos = Self.filter([.glob("*.mov")])
        let everything = Self.filter([.glob("*")])
        #expect(PhotoDialog.media(filters: [images, videos], current: nil) == .any([.kind(.image), .kind(.video)]))
        // "Images" first with "All files" beside it: the current filter asks for photos.
        #expect(PhotoDialog.media(filters: [images, everything], current: images) == .kind(.image))
        #expect(PhotoDialog.media(filters: [images, everything], current: everything) == nil)
        #expect(PhotoDialog.media(filters: [images, everything], current: nil) == nil)
        #expect(PhotoDialog.media(filters: [], current: nil) == nil, "a dialog without filters is for any file")
    }
}
