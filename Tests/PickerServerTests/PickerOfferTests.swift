import MediaFormats
import PhotoCore
import PickerServer
import Testing

/// The picker offers what the app could be served: the same rule as its view. A file the
/// view withholds (its location cannot be removed with certainty) is not offered to an app
/// that strips locations, so picking can never fail on it; an app that keeps locations is
/// offered it.
@Suite("What the picker offers")
struct PickerOfferTests {
    static func asset(_ letter: Character, format: MediaFormat = .jpeg, withheld: WithheldPlans = []) -> Asset {
        Asset(
            id: AssetID(String(repeating: "0", count: 11) + String(letter))!, path: LibraryPath("\(letter).jpg"), size: 10,
            mtimeNanoseconds: 1_700_000_000_000_000_000, inode: 1, metadata: MediaMetadata(format: format), withheld: withheld)
    }

    @Test func aWithheldFileIsOfferedOnlyWhereItCanBeServed() throws {
        let assets = [Self.asset("a"), Self.asset("b", withheld: [.strip, .coarse]), Self.asset("c", format: .mp4)]
        let strip = App(name: "editor", locationPolicy: .strip)
        let keep = App(name: "keeper", locationPolicy: .keep)
        #expect(PickerOffer.candidates(assets, app: strip, media: nil).map(\.id.rawValue.last) == ["a", "c"])
        #expect(PickerOffer.candidates(assets, app: keep, media: nil).map(\.id.rawValue.last) == ["a", "b", "c"])
        let images = try #require(try PickRequestParser.parse("media=image").media)
        #expect(PickerOffer.candidates(assets, app: keep, media: images).map(\.id.rawValue.last) == ["a", "b"])
        let filtered = App(name: "videos", filter: "type:video", locationPolicy: .keep)
        #expect(PickerOffer.candidates(assets, app: filtered, media: nil).map(\.id.rawValue.last) == ["c"])
    }
}
