import Testing

@testable import PhotoCore

/// The library views' tables as the daemon keeps them on disk: read back, they build the
/// very views a fresh build makes (same names, inodes, order, served assets; the same id
/// table, which the picker shares and a library change patches), and bytes that do not fit
/// the assets are refused.
@Suite("library tables kept on disk")
struct LibraryTablesTests {
    /// Assets with clashing names, shared folders and dates, and ids held twice.
    static func snapshot(seed: Int, count: Int = 80, copies: Bool = true) -> LibrarySnapshot {
        var random = ViewTreePatchTests.Random(state: UInt64(seed))
        var assets = (0..<count).map { ViewTreePatchTests.asset($0, &random) }
        // The same file in two folders: one id held twice, the first by path shown.
        for n in stride(from: 0, to: copies ? count : 0, by: 17) {
            var copy = assets[n]
            copy.path = LibraryPath("copies/\(n).jpg")
            assets.append(copy)
        }
        let apps = ["a": App(name: "a", locationPolicy: .keep)]
        let grants = ["a": assets.prefix(10).enumerated().map { Grant(asset: $0.element.id, grantedAtNanoseconds: Int64($0.offset)) }]
        return LibrarySnapshot(assets: ChunkedArray(assets), apps: apps, grants: grants)
    }

    static func bytes(_ tables: LibraryTables) -> [UInt8] {
        var bytes: [UInt8] = []
        tables.write { bytes.append(contentsOf: $0) }
        return bytes
    }

    static func read(_ bytes: [UInt8], count: Int) -> LibraryTables? {
        bytes.withUnsafeBytes { LibraryTables(bytes: $0, assetCount: count) }
    }

    @Test(arguments: [1, 2, 3])
    func tablesReadBackBuildTheViewsAFreshBuildMakes(seed: Int) throws {
        let snapshot = Self.snapshot(seed: seed)
        let count = snapshot.assets.count
        let kept = try #require(Self.read(Self.bytes(LibraryTables(snapshot.assets)), count: count))
        #expect(!kept.first.hidden.isEmpty, "ids held twice are part of the test")
        let fresh = ViewFixtures.build(snapshot)
        let fromKept = ViewTree.build(snapshot: snapshot, filters: EmptyFilterOnlyResolver(), tables: kept)
        #expect(ViewTreePatchTests.listing(fromKept) == ViewTreePatchTests.listing(fresh))
        ViewFixtures.checkTables(fromKept)
        for asset in snapshot.assets {
            #expect(
                fromKept.firstByID.position(of: asset.id, in: snapshot.assets)
                    == fresh.firstByID.position(of: asset.id, in: snapshot.assets))
        }

    }

    /// A library change patches the kept id table as it patches a fresh one (a tree with
    /// ids held twice is built again instead: no copies here).
    @Test func aTreeFromKeptTablesIsPatchedAsAFreshOne() throws {
        let snapshot = Self.snapshot(seed: 7, copies: false)
        let kept = try #require(Self.read(Self.bytes(LibraryTables(snapshot.assets)), count: snapshot.assets.count))
        let fromKept = ViewTree.build(snapshot: snapshot, filters: EmptyFilterOnlyResolver(), tables: kept)
        let (assets, change) = snapshot.assets(replacing: Set(snapshot.assets.prefix(3).map(\.id))) { _ in [] }
        let next = LibrarySnapshot(assets: assets, apps: snapshot.apps, grants: snapshot.grants)
        let (patched, _) = try #require(fromKept.patching(change, to: next, filters: EmptyFilterOnlyResolver()))
        #expect(ViewTreePatchTests.listing(patched) == ViewTreePatchTests.listing(ViewFixtures.build(next, previous: fromKept)))
        ViewFixtures.checkTables(patched)
    }

    /// The picker's index shares the kept id table under its key: every id is found.
    @Test func thePickersIndexFindsEveryIDInAKeptTable() throws {
        var random = ViewTreePatchTests.Random(state: 9)
        let assets = ChunkedArray((0..<300).map { ViewTreePatchTests.asset($0, &random) })
        let kept = try #require(Self.read(Self.bytes(LibraryTables(assets)), count: assets.count))
        let tree = ViewTree.build(snapshot: LibrarySnapshot(assets: assets), filters: EmptyFilterOnlyResolver(), tables: kept)
        let index = AssetIndex(sharingIDsOf: tree)
        #expect(index.isPrepared, "the views' table is taken, not built again")
        for asset in assets { #expect(index[asset.id]?.path == asset.path) }
        #expect(index[AssetID(number: 0xFFFF_FFFF)!] == nil)
    }

    @Test func tablesOfOtherAssetsOrDamagedBytesAreRefused() throws {
        let snapshot = Self.snapshot(seed: 5)
        let count = snapshot.assets.count
        let bytes = Self.bytes(LibraryTables(snapshot.assets))
        #expect(Self.read(bytes, count: count) != nil)
        #expect(Self.read(bytes, count: count - 1) == nil, "another asset count")
        #expect(Self.read(bytes, count: count + 1) == nil)
        for length in stride(from: 0, to: bytes.count, by: 7) {
            #expect(Self.read(Array(bytes.prefix(length)), count: count) == nil, "truncated to \(length)")
        }
        #expect(Self.read(bytes + [0], count: count) == nil, "a byte too many")
        // A position past the assets in the id table (its slots start after the count and the key).
        var outOfRange = bytes
        let slots = 32
        let slotCount = outOfRange.withUnsafeBytes { Int($0.loadUnaligned(fromByteOffset: 24, as: UInt64.self)) }
        for slot in 0..<slotCount {
            let at = slots + slot * 4
            if outOfRange.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: at, as: Int32.self) }) >= 0 {
                outOfRange.withUnsafeMutableBytes { $0.storeBytes(of: Int32(count), toByteOffset: at, as: Int32.self) }
                break
            }
        }
        #expect(Self.read(outOfRange, count: count) == nil)
        #expect(Self.read([UInt8](repeating: 0xFF, count: bytes.count), count: count) == nil, "garbage")
    }

    @Test func idHashKeysHashAlikeOnlyUnderTheSameKey() {
        let a = IDHashKey(k0: 1, k1: 2)
        let b = IDHashKey(k0: 1, k1: 3)
        let id = AssetID(number: 0x1234_5678_9abc)!
        #expect(a.hash(id) == IDHashKey(k0: 1, k1: 2).hash(id))
        #expect(a.hash(id) != b.hash(id))
        #expect(IDHashKey.random() != IDHashKey.random())
        // Spread: 4,096 consecutive ids fill most of 8,192 slots' low bits.
        let slots = Set((0..<4096).map { a.hash(AssetID(number: UInt64($0))!) & 8191 })
        #expect(slots.count > 2_800)
    }
}
