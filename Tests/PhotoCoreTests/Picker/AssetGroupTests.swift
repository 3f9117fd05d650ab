import MediaFormats
import Synchronization
import Testing

@testable import PhotoCore

/// Groups derived from paths, formats and content identifiers, and what a `select` or
/// `deselect` of one member does to the others.
@Suite struct AssetGroupTests {
    static func asset(_ n: UInt64, _ path: String, _ format: MediaFormat) -> Asset {
        Asset(
            id: AssetID(number: n)!, path: LibraryPath(path), size: 10, mtimeNanoseconds: 1, inode: n,
            metadata: MediaMetadata(format: format),
            redaction: RedactionPlans(strip: .identity, coarse: .identity))
    }

    static let still = asset(1, "Live/IMG_1.HEIC", .heic)
    static let movie = asset(2, "Live/IMG_1.MOV", .mov)
    static let jpeg = asset(3, "Raw/DSC_1.JPG", .jpeg)
    static let nef = asset(4, "Raw/DSC_1.NEF", .raw)
    static let alone = asset(5, "Raw/DSC_2.JPG", .jpeg)
    static let copy = asset(6, "Elsewhere/IMG_1.MOV", .mov)
    static let lonelyStill = asset(7, "Live/IMG_9.HEIC", .heic)
    static let all = [still, movie, jpeg, nef, alone, copy, lonelyStill]
    static let identifiers = [still.id: "U1", movie.id: "U1", copy.id: "U1", lonelyStill.id: "U9"]

    @Test func groupsAreDerivedFromPathsFormatsAndIdentifiers() {
        let groups = AssetGroups(Self.all, identifiers: Self.identifiers)
        #expect(groups.groups.count == 2)
        #expect(groups.group(of: Self.movie.id) == AssetGroup(kind: .live, members: [Self.still.id, Self.movie.id]))
        #expect(groups.group(of: Self.nef.id) == AssetGroup(kind: .rawJPEG, members: [Self.jpeg.id, Self.nef.id]))
        #expect(groups.group(of: Self.copy.id) == nil, "a movie in another folder is not the still's partner")
        #expect(groups.group(of: Self.lonelyStill.id) == nil, "a still without its movie is no Live Photo")
        #expect(groups.group(of: Self.alone.id) == nil)
        #expect(groups.partners(of: Self.jpeg.id) == [Self.nef.id])
        #expect(AssetGroups(Self.all, identifiers: [:]).groups.map(\.kind) == [.rawJPEG])
        #expect(AssetGroup(kind: .live, members: [Self.still.id]).badge == "LIVE")
        #expect(AssetGroup(kind: .rawJPEG, members: [Self.jpeg.id]).badge == "RAW+JPEG")
    }

    /// The groups come out the same whether the assets are an array or the chunks a
    /// snapshot keeps (whose pass reads each asset's format in place).
    @Test func chunkedAssetsGiveTheSameGroups() {
        let chunked = AssetGroups(ChunkedArray(Self.all), identifiers: Self.identifiers)
        #expect(chunked.groups == AssetGroups(Self.all, identifiers: Self.identifiers).groups)
        #expect(AssetGroups(ChunkedArray(Self.all), identifiers: [:]).groups == AssetGroups(Self.all, identifiers: [:]).groups)
    }

    /// An index of `assets` whose content identifiers are `identifiers`, and how often it read them.
    private static func countingReads(of assets: [Asset], identifiers: [AssetID: String]) -> (AssetIndex, ReadCount) {
        let reads = ReadCount()
        let index = AssetIndex(
            ChunkedArray(assets),
            identifiers: {
                reads.count.withLock { $0 += 1 }
                return identifiers
            })
        return (index, reads)
    }

    /// `prepare` (run once a mount answers) derives the groups, so the first select after a
    /// mount reads no identifiers and walks no assets.
    @Test func prepareDerivesTheGroupsBeforeTheFirstSelect() throws {
        let (index, reads) = Self.countingReads(of: Self.all, identifiers: Self.identifiers)
        index.prepare()
        #expect(reads.count.withLock { $0 } == 1)
        let state = try Self.run("app add a\nselect a @3\n", index)
        #expect(Self.granted(state, "a") == [3, 4], "the JPEG takes its raw file along")
        #expect(reads.count.withLock { $0 } == 1, "the select used the prepared groups")
    }

    /// Before ready, the daemon settles the groups only when there can be none: a library of
    /// JPEGs without identifiers is known to have none at once (a select then waits for no
    /// derivation and takes exactly what it names); one with a raw file or an identifier is
    /// left to the full derivation, which still pairs exactly as before.
    @Test func groupsAreSettledBeforeReadyOnlyWhenThereCanBeNone() throws {
        let jpegs = [Self.jpeg, Self.alone, Self.asset(8, "Raw/DSC_3.JPG", .jpeg)]
        let (plain, plainReads) = Self.countingReads(of: jpegs, identifiers: [:])
        #expect(plain.settleGroupsIfNone(knownWithoutIdentifiers: true))
        #expect(plainReads.count.withLock { $0 } == 0, "known without identifiers: not read")
        #expect(plain.groups.isEmpty)
        #expect(Self.granted(try Self.run("app add a\nselect a @3\n", plain), "a") == [3])

        let withRaw = AssetIndex(ChunkedArray(jpegs + [Self.nef]), identifiers: { [:] })
        #expect(!withRaw.settleGroupsIfNone(), "a raw file may pair: left to the derivation")
        #expect(Self.granted(try Self.run("app add a\nselect a @3\n", withRaw), "a") == [3, 4])

        let (withIdentifiers, reads) = Self.countingReads(of: Self.all, identifiers: Self.identifiers)
        #expect(!withIdentifiers.settleGroupsIfNone())
        #expect(withIdentifiers.groups.groups == AssetGroups(Self.all, identifiers: Self.identifiers).groups)
        #expect(withIdentifiers.settleGroupsIfNone(), "derived: known now")
        #expect(reads.count.withLock { $0 } == 1, "a raw file settles nothing without reading; read once to derive")
    }

    /// How often the identifiers were read.
    private final class ReadCount: Sendable {
        let count = Mutex(0)
    }

    static func run(_ script: String, _ index: AssetIndex, on state: AccessState = AccessState()) throws -> AccessState {
        var text = script
        for asset in all { text = text.replacing("@\(asset.inode)", with: asset.id.rawValue) }
        return try PickerExecutor.apply(try PickerCommandParser.parse(text), to: state, assets: index, now: 1).0
    }

    static func granted(_ state: AccessState, _ app: String) -> [UInt64] {
        (state.grants[app] ?? []).compactMap { grant in all.first { $0.id == grant.asset }?.inode }
    }

    @Test func selectOfOneMemberGrantsTheMembersTheAppIsShownAndDeselectTakesTheGroup() throws {
        let index = AssetIndex(ChunkedArray(Self.all), identifiers: { Self.identifiers })
        var state = try Self.run(
            """
            app add any
            app add stills --filter type:image
            select any @2 @4
            select stills @1
            """, index)
        #expect(throws: PickerError.self, "the movie itself is outside the filter") { try Self.run("select stills @2", index, on: state) }
        #expect(Self.granted(state, "any") == [2, 1, 4, 3], "each named member, then the rest of its group")
        #expect(Self.granted(state, "stills") == [1], "as a partner, the movie is left out")
        state = try Self.run("deselect any @3", index, on: state)
        #expect(Self.granted(state, "any") == [2, 1], "deselecting the JPEG takes the raw file too")
        // A pick that already chose each member grants exactly what it names.
        state = try Self.run("select any @3", index.ignoringGroups(), on: state)
        #expect(Self.granted(state, "any") == [2, 1, 3])
    }

    @Test func theLimitCountsEachMember() throws {
        let index = AssetIndex(ChunkedArray(Self.all), identifiers: { Self.identifiers })
        #expect(throws: PickerError.self) { try Self.run("app add one --limit 1\nselect one @1", index) }
        #expect(Self.granted(try Self.run("app add two --limit 2\nselect two @1", index), "two") == [1, 2])
    }

    @Test func mediaLiveMeansAMemberOfALivePhoto() throws {
        let live = try #require(try PickRequestParser.parse(Array("media=live\n".utf8)).media)
        let groups = AssetGroups(Self.all, identifiers: Self.identifiers)
        let chosen = Self.all.filter { live.matches($0, isLivePhoto: groups.group(of: $0.id)?.kind == .live) }
        #expect(chosen.map(\.inode) == [1, 2])
        let notLive = try #require(try PickRequestParser.parse(Array("media=all(image,not(live))\n".utf8)).media)
        #expect(Self.all.filter { notLive.matches($0, isLivePhoto: groups.group(of: $0.id)?.kind == .live) }.map(\.inode) == [3, 4, 5, 7])
    }

    @Test func pickerTextNamesTheGroup() throws {
        let index = AssetIndex(ChunkedArray(Self.all), identifiers: { Self.identifiers })
        let state = try Self.run("app add any\nselect any @1", index)
        let text = PickerRenderer.render(state, assets: index)
        #expect(text.contains("select any \(Self.still.id)  # Live/IMG_1.HEIC (LIVE with \(Self.movie.id))"), "\(text)")
        #expect(text.contains("select any \(Self.movie.id)  # Live/IMG_1.MOV (LIVE with \(Self.still.id))"), "\(text)")
    }
}
