import PhotoCore
import Testing

/// A library change patches the picker's id and path tables instead of dropping them: after
/// each step of a random run of adds, deletes, rewrites and moves, the patched index finds
/// every id and path as an index built from scratch does, and it needs no table build.
@Suite("AssetIndex patched by library changes")
struct AssetIndexPatchTests {
    /// Ids and paths unique, as in a catalog: every step can be patched.
    private static func asset(_ id: Int, path: Int, size: Int64 = 1000) -> Asset {
        ViewFixtures.asset(String(0x1000 + id, radix: 16), "f\(path % 7)/IMG_\(path).jpg", taken: nil, size: size)
    }

    private static func expectSameLookups(_ patched: AssetIndex, _ fresh: AssetIndex, catalog: [AssetID: Asset], gone: [Asset]) {
        #expect(patched.count == fresh.count)
        for (id, asset) in catalog {
            #expect(patched[id] == asset)
            #expect(patched.asset(at: asset.path) == asset)
        }
        for asset in gone where catalog[asset.id] == nil {
            #expect(patched[asset.id] == nil)
        }
        for asset in gone where !catalog.values.contains(where: { $0.path == asset.path }) {
            #expect(patched.asset(at: asset.path) == nil)
        }
    }

    @Test(arguments: [1, 2, 3])
    func randomChangesPatchToWhatABuildFinds(seed: Int) {
        var random = ViewTreePatchTests.Random(state: UInt64(seed))
        var catalog: [AssetID: Asset] = [:]
        var assets: [Asset] = []
        var nextPath = 0
        for n in 0..<80 {
            let asset = Self.asset(n, path: nextPath)
            nextPath += 1
            catalog[asset.id] = asset
            assets.append(asset)
        }
        var snapshot = LibrarySnapshot(assets: assets)
        var index = AssetIndex(snapshot.assets)
        index.prepare()
        var nextID = 80
        var gone: [Asset] = []
        for _ in 0..<60 {
            var changed = Set<AssetID>()
            for _ in 0..<(1 + random.next(8)) {
                let ids = catalog.keys.sorted()
                switch random.next(4) {
                case 0:
                    let asset = Self.asset(nextID, path: nextPath)
                    nextID += 1
                    nextPath += 1
                    catalog[asset.id] = asset
                    changed.insert(asset.id)
                case 1:
                    guard !ids.isEmpty else { continue }
                    let id = ids[random.next(ids.count)]
                    gone.append(catalog[id]!)
                    catalog[id] = nil
                    changed.insert(id)
                case 2:
                    guard !ids.isEmpty else { continue }
                    let id = ids[random.next(ids.count)]
                    catalog[id]?.size += 10
                    changed.insert(id)
                default:  // moved: same id, a new path
                    guard !ids.isEmpty else { continue }
                    let id = ids[random.next(ids.count)]
                    gone.append(catalog[id]!)
                    catalog[id]?.path = LibraryPath("moved/\(nextPath).jpg")
                    nextPath += 1
                    changed.insert(id)
                }
            }
            let (newAssets, change) = snapshot.assets(replacing: changed) { id in catalog[id].map { [$0] } ?? [] }
            index = index.patched(to: newAssets, change: change)
            #expect(index.isPrepared && index.isPreparedByPath)
            snapshot = LibrarySnapshot(assets: newAssets)
            Self.expectSameLookups(index, AssetIndex(newAssets), catalog: catalog, gone: gone)
        }
    }

    @Test func anIndexNotPreparedIsBuiltOnFirstUseAfterAChange() {
        let assets = (0..<10).map { Self.asset($0, path: $0) }
        let snapshot = LibrarySnapshot(assets: assets)
        let index = AssetIndex(snapshot.assets)
        let added = Self.asset(99, path: 99)
        let (newAssets, change) = snapshot.assets(replacing: [added.id]) { _ in [added] }
        let patched = index.patched(to: newAssets, change: change)
        #expect(!patched.isPrepared && !patched.isPreparedByPath)
        #expect(patched[added.id] == added)
        #expect(patched.isPrepared)
    }

    @Test func aKeyHeldTwiceFallsBackToABuild() {
        // Two assets at one path (never from a catalog): the patch cannot keep "the last wins".
        let assets = [
            ViewFixtures.asset("1", "a/x.jpg", taken: nil), ViewFixtures.asset("2", "a/x.jpg", taken: nil),
            ViewFixtures.asset("3", "a/y.jpg", taken: nil),
        ]
        let snapshot = LibrarySnapshot(assets: assets)
        let index = AssetIndex(snapshot.assets)
        index.prepare()
        let (newAssets, change) = snapshot.assets(replacing: [assets[1].id]) { _ in [] }
        let patched = index.patched(to: newAssets, change: change)
        #expect(patched.isPrepared, "the ids are unique: their table is patched")
        #expect(!patched.isPreparedByPath)
        #expect(patched.asset(at: LibraryPath("a/x.jpg"))?.id == assets[0].id)
        #expect(patched.count == 2)
    }
}

/// The daemon's index takes the views' table of positions by id instead of building one.
@Suite("AssetIndex sharing the views' id table")
struct AssetIndexSharingTests {
    @Test func findsWhatABuiltIndexFindsWithoutBuilding() {
        let assets = (0..<50).map { ViewFixtures.asset(String(0x100 + $0, radix: 16), "f\($0 % 4)/IMG_\($0).jpg", taken: nil) }
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets))
        let shared = AssetIndex(sharingIDsOf: tree)
        #expect(shared.isPrepared)
        let built = AssetIndex(assets)
        for asset in assets {
            #expect(shared[asset.id] == built[asset.id])
            #expect(shared.asset(at: asset.path) == asset)
        }
        #expect(shared.count == 50)
        #expect(shared[AssetID("0000000fffff")!] == nil)
    }

    @Test func anIdHeldTwiceIsTheLastAsInABuiltIndex() {
        // The views show the first by path; the picker's index keeps the last.
        let assets = [
            ViewFixtures.asset("1", "b/one.jpg", taken: nil), ViewFixtures.asset("1", "a/one-again.jpg", taken: nil),
            ViewFixtures.asset("2", "c/two.jpg", taken: nil),
        ]
        let shared = AssetIndex(sharingIDsOf: ViewFixtures.build(LibrarySnapshot(assets: assets)))
        #expect(!shared.isPrepared)
        #expect(shared[AssetID("000000000001")!]?.path == LibraryPath("a/one-again.jpg"))
        #expect(shared.count == 2)
    }
}
