import CatalogTestSupport
import PhotoCore
import SystemKit
import Testing

@testable import DaemonCore
@testable import PhotoCatalog

/// What ends by itself, through the live state: an expired grant is out of the views as
/// soon as they are built (also after a restart), and `endFinishedGrants` takes it out of
/// the catalog with what the kernel must forget; a rule app's view follows the library.
@Suite("LibraryState ending grants and rules")
struct LibraryStateEndingTests {
    static let second: Int64 = 1_000_000_000

    static func appFiles(_ state: LibraryState, _ app: String) -> [String] {
        guard let directory = state.views.resolve(Array("apps/\(app)".utf8)) else { return [] }
        return state.views.children(of: directory.inode).map { String(decoding: $0.name, as: UTF8.self) }.sorted()
    }

    @Test func expiredGrantsLeaveTheViewsAndTheCatalog() throws {
        let library = try TestLibrary(photos: ["a/one.jpg": "1", "a/two.jpg": "2"])
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        try state.load()
        let byName = Dictionary(uniqueKeysWithValues: state.current.snapshot.assets.map { ($0.path.fileName, $0.id.rawValue) })
        let (one, two) = (try #require(byName[Array("one.jpg".utf8)]), try #require(byName[Array("two.jpg".utf8)]))
        let now = SystemClock.wallNanoseconds()
        // One grant already expired a second ago (as after a daemon that was down at its expiry).
        _ = try state.execute(
            write: Array("app add e --location keep\nselect e \(one) --for 1s\nselect e \(two)\n".utf8), now: now - 2 * Self.second)
        #expect(Self.appFiles(state, "e") == ["two.jpg"])
        #expect(try library.catalog.grants(for: "e").count == 2)
        #expect(state.endingOutlook().nextExpiry == now - Self.second)

        let forget = try #require(try state.endFinishedGrants(now: now, isRunning: { _ in true }))
        // The views never showed it, so the kernel has nothing to forget.
        #expect(forget.isEmpty)
        #expect(try library.catalog.grants(for: "e").map(\.asset.rawValue) == [two])
        #expect(try state.endFinishedGrants(now: now, isRunning: { _ in true }) == nil)
        #expect(state.endingOutlook().nextExpiry == nil)

        // A reloaded state (a restarted daemon) reads the same.
        let restarted = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        try restarted.load()
        #expect(Self.appFiles(restarted, "e") == ["two.jpg"])
    }

    @Test func aRuleAppFollowsANewFileAndAGoneRun() throws {
        let library = try TestLibrary(photos: ["a/one.jpg": "1", "b/two.jpg": "2"])
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        try state.load()
        let owner = RunOwner(pid: 7, startTicks: 8, bootID: "ab")
        _ = try state.execute(write: Array("app add r --location keep\nonce begin r \(owner)\nselect r --rule folder:a\n".utf8), now: 1)
        #expect(AccessState(state.current.snapshot).appsWithRules == ["r"])
        #expect(Self.appFiles(state, "r") == ["one.jpg"])
        try library.writePhoto("a/three.jpg", comment: "3")
        try state.reload(changed: try library.indexer.run().changedIDs)
        #expect(Self.appFiles(state, "r") == ["one.jpg", "three.jpg"])
        #expect(state.endingOutlook().runOwners == [owner])
        // The run's process is gone: its rule goes, and the view empties.
        #expect(try state.endFinishedGrants(now: 2, isRunning: { $0 != owner }) != nil)
        #expect(Self.appFiles(state, "r") == [])
        #expect(try library.catalog.apps()["r"]?.rules == [])
    }
}
