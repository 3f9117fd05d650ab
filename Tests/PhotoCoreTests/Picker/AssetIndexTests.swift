import PhotoCore
import Testing

/// The picker's index of the catalogued assets: by id, by path, and in capture-date order.
@Suite("AssetIndex")
struct AssetIndexTests {
    private let assets = [
        ViewFixtures.asset("1", "a/one.jpg", taken: ViewFixtures.date(2024, 3, 1)),
        ViewFixtures.asset("2", "a/two.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        // The same id again, at another path: the last one stands for the id.
        ViewFixtures.asset("1", "b/one-again.jpg", taken: ViewFixtures.date(2024, 2, 1)),
        ViewFixtures.asset("3", "c/three.jpg", taken: ViewFixtures.date(2023, 1, 1)),
    ]

    @Test func findsByIdTheLastAssetWithThatId() {
        let index = AssetIndex(assets)
        #expect(index[AssetID("000000000001")!]?.path == LibraryPath("b/one-again.jpg"))
        #expect(index[AssetID("000000000002")!]?.path == LibraryPath("a/two.jpg"))
        #expect(index[AssetID("000000000009")!] == nil)
        #expect(index.count == 3)
    }

    @Test func findsByPathTheAssetStandingForThatPathsId() {
        let index = AssetIndex(assets)
        #expect(index.asset(at: LibraryPath("c/three.jpg"))?.id == AssetID("000000000003")!)
        #expect(index.asset(at: LibraryPath("a/one.jpg"))?.path == LibraryPath("b/one-again.jpg"))
        #expect(index.asset(at: LibraryPath("a/missing.jpg")) == nil)
    }

    @Test func listsEachIdOnceInCaptureDateOrder() {
        let index = AssetIndex(assets)
        #expect(index.inDateOrder.map(\.path.description) == ["c/three.jpg", "a/two.jpg", "b/one-again.jpg"])
    }

    @Test func anEmptyIndexFindsNothing() {
        let index = AssetIndex([Asset]())
        #expect(index.count == 0)
        #expect(index[AssetID("000000000001")!] == nil)
        #expect(index.inDateOrder.isEmpty)
    }
}
