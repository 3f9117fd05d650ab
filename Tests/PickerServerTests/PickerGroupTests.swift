import MediaFormats
import PhotoCore
import PickerServer
import Testing

/// A group is one tile: the first offered member stands for it, Add grants every offered
/// member, and a member the app's filter or the request's media leaves out is neither
/// offered nor granted.
@Suite("Groups in the picker")
struct PickerGroupTests {
    static func asset(_ n: UInt64, _ path: String, _ format: MediaFormat) -> Asset {
        Asset(
            id: AssetID(number: n)!, path: LibraryPath(path), size: 10, mtimeNanoseconds: 1_700_000_000_000_000_000, inode: n,
            metadata: MediaMetadata(format: format), withheld: [])
    }

    static let still = asset(1, "Live/IMG_1.HEIC", .heic)
    static let movie = asset(2, "Live/IMG_1.MOV", .mov)
    static let jpeg = asset(3, "Raw/DSC_1.JPG", .jpeg)
    static let nef = asset(4, "Raw/DSC_1.NEF", .raw)
    static let other = asset(5, "other.jpg", .jpeg)
    static let all = [still, movie, jpeg, nef, other]
    static let groups = AssetGroups(all, identifiers: [still.id: "U", movie.id: "U"])

    static func setup(filter: String = "", media: String? = nil) throws -> PickerSetup {
        let app = App(name: "editor", filter: filter, locationPolicy: .strip)
        let selector = try media.flatMap { try PickRequestParser.parse("media=\($0)").media }
        let candidates = PickerOffer.candidates(all, app: app, media: selector, groups: groups)
        return PickerSetup(
            app: app, requestID: nil, mode: .add, limit: nil, ordered: true, media: selector?.filterText ?? "", candidates: candidates,
            preselected: [], libraryRoot: "/nowhere", groups: groups)
    }

    @Test func aGroupIsOneTileAndAddGrantsItsOfferedMembers() throws {
        let setup = try Self.setup()
        let (tiles, hidden) = setup.groupTiles()
        #expect(hidden == [Self.movie.id, Self.nef.id])
        #expect(tiles[Self.still.id]?.group.badge == "LIVE" && tiles[Self.still.id]?.members == [Self.still.id, Self.movie.id])
        #expect(tiles[Self.jpeg.id]?.group.badge == "RAW+JPEG")
        #expect(setup.withGroupMembers([Self.jpeg.id, Self.still.id]) == [Self.jpeg.id, Self.nef.id, Self.still.id, Self.movie.id])
        #expect(setup.withGroupMembers([Self.other.id]) == [Self.other.id])
    }

    @Test func aMemberTheFilterOrTheMediaLeavesOutIsNotGranted() throws {
        for setup in [try Self.setup(filter: "type:image"), try Self.setup(media: "image")] {
            let (tiles, hidden) = setup.groupTiles()
            #expect(tiles[Self.still.id] == nil && !hidden.contains(Self.still.id), "one offered member: an ordinary tile")
            #expect(setup.withGroupMembers([Self.still.id]) == [Self.still.id])
            #expect(setup.withGroupMembers([Self.jpeg.id]) == [Self.jpeg.id, Self.nef.id])
        }
        let live = try Self.setup(media: "live")
        #expect(live.candidates.map(\.id) == [Self.still.id, Self.movie.id].sorted { _, _ in false })
        #expect(live.withGroupMembers([Self.still.id]) == [Self.still.id, Self.movie.id])
    }
}
