import MediaFormats
import PhotoCore
import Testing
import ViewTestSupport

/// A library change patches the tree instead of building it: after every step of a long
/// random run of adds, deletes, edits and moves, the patched tree must be the tree a full
/// build makes (same names, inodes, order, served assets), every node must be found by
/// inode and by name, and the invalidations derived from the change must cover what a
/// full diff of the two trees finds.
@Suite("ViewTree library-change patching")
struct ViewTreePatchTests {
    /// A small deterministic generator (SplitMix64), so a failure can be replayed.
    struct Random {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9e37_79b9_7f4a_7c15
            var z = state
            z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
            z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    static func asset(_ n: Int, _ random: inout Random) -> Asset {
        // Few folders, names, dates and cameras: clashes, shared directories, empty ones.
        let folder = ["f0", "f1", "f1/sub", "f2/a/b", "f3"][random.next(5)]
        let name = random.next(6) == 0 ? "sub" : "IMG_\(random.next(5)).jpg"
        let taken = random.next(5) == 0 ? nil : ViewFixtures.date(2020 + random.next(3), 1 + random.next(2), 1 + random.next(3))
        return ViewFixtures.asset(
            String(0x1000 + n, radix: 16), "\(folder)/\(name)", taken: taken, make: ["Canon", nil, "Sony"][random.next(3)],
            model: ["EOS \(random.next(2))", nil][random.next(2)], size: Int64(1000 + random.next(3)))
    }

    /// Every directory's listing: name, inode, owner and, for files, the asset served and its size.
    static func listing(_ tree: ViewTree) -> [String: [String]] {
        tree.listings { node in
            let served = tree.asset(of: node).map { "\($0.id.rawValue):\($0.size)" } ?? "-"
            return "\(tree.boundUID(of: node).map(String.init) ?? "-") \(served)"
        }
    }

    @Test(arguments: [1, 2, 3, 4])
    func randomChangesPatchToWhatAFullBuildMakes(seed: Int) throws {
        var random = Random(state: UInt64(seed))
        var catalog: [AssetID: Asset] = [:]
        var assets: [Asset] = []
        for n in 0..<60 {
            let asset = Self.asset(n, &random)
            catalog[asset.id] = asset
            assets.append(asset)
        }
        let apps = ["a": App(name: "a", locationPolicy: .keep), "b": App(name: "b", locationPolicy: .keep, uid: 1001)]
        let grants = [
            "a": assets.prefix(20).enumerated().map { Grant(asset: $0.element.id, grantedAtNanoseconds: Int64($0.offset)) },
            "b": assets.suffix(5).map { Grant(asset: $0.id, grantedAtNanoseconds: 0) },
        ]
        var tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: grants))
        var nextID = 60
        var patched = 0
        for _ in 0..<40 {
            var changed = Set<AssetID>()
            for _ in 0..<(1 + random.next(6)) {
                let ids = catalog.keys.sorted()
                switch random.next(4) {
                case 0:  // a new file
                    let asset = Self.asset(nextID, &random)
                    nextID += 1
                    catalog[asset.id] = asset
                    changed.insert(asset.id)
                case 1:  // a deleted file
                    guard let id = ids.isEmpty ? nil : ids[random.next(ids.count)] else { continue }
                    catalog[id] = nil
                    changed.insert(id)
                case 2:  // rewritten in place
                    guard let id = ids.isEmpty ? nil : ids[random.next(ids.count)] else { continue }
                    catalog[id]?.size += 10
                    changed.insert(id)
                default:  // moved or re-dated: same id, new path and date
                    guard let id = ids.isEmpty ? nil : ids[random.next(ids.count)] else { continue }
                    var moved = Self.asset(0, &random)
                    moved.id = id
                    catalog[id] = moved
                    changed.insert(id)
                }
            }
            let old = tree.snapshot
            let (newAssets, change) = old.assets(replacing: changed) { id in catalog[id].map { [$0] } ?? [] }
            // Unchanged assets keep their places; moved ones are the same values.
            for (position, asset) in old.assets.enumerated() where !changed.contains(asset.id) && position < newAssets.count {
                if !change.moved.contains(where: { $0.to == Int32(position) }) { #expect(newAssets[position] == asset) }
            }
            for move in change.moved { #expect(newAssets[Int(move.to)] == old.assets[Int(move.from)]) }
            #expect(Set(newAssets.map(\.id)) == Set(catalog.keys))
            #expect(newAssets.count == catalog.count)

            let snapshot = LibrarySnapshot(assets: newAssets, apps: old.apps, grants: old.grants)
            let full = ViewFixtures.build(snapshot, previous: tree)
            // A new folder named like a file there renames the file: only a build does that.
            guard let (next, changes) = tree.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()) else {
                tree = full
                continue
            }
            #expect(Self.listing(next) == Self.listing(full))
            ViewFixtures.checkTables(next)
            let expected = tree.changes(to: full)
            #expect(Set(expected.invalidatedInodes).isSubset(of: Set(changes.invalidatedInodes)))
            #expect(Set(expected.removedEntries).isSubset(of: Set(changes.removedEntries)))
            tree = next
            patched += 1
        }
        #expect(patched >= 30)
    }

    @Test func anUntouchedAppKeepsItsPartAndNeedsNoInvalidation() throws {
        var random = Random(state: 9)
        let assets = (0..<10).map { Self.asset($0, &random) }
        let apps = ["a": App(name: "a", locationPolicy: .keep)]
        let grants = ["a": [Grant(asset: assets[0].id, grantedAtNanoseconds: 0)]]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: grants))
        let added = ViewFixtures.asset("fff", "new/unique.jpg", taken: ViewFixtures.date(2030, 1, 1))
        let (newAssets, change) = tree.snapshot.assets(replacing: [added.id]) { _ in [added] }
        #expect(change == LibraryChange(added: [10]))
        let snapshot = LibrarySnapshot(assets: newAssets, apps: apps, grants: grants)
        let (next, changes) = try #require(tree.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()))
        let app = try #require(tree.resolve(Array("apps/a".utf8)))
        #expect(!changes.invalidatedInodes.contains(app.inode))
        #expect(changes.invalidatedInodes.contains(ViewInode.all))
        #expect(changes.removedEntries.isEmpty)
        #expect(Self.listing(next)["/apps/a"] == Self.listing(tree)["/apps/a"])
        #expect(next.resolve(Array("library/all".utf8) + [UInt8(ascii: "/")] + added.path.fileName) != nil)
    }

    @Test func aDeletedGrantedAssetLeavesItsAppAndItsEmptyDirectories() throws {
        let assets = [
            ViewFixtures.asset("a1", "only/here.jpg", taken: ViewFixtures.date(2019, 5, 6), make: "Leica"),
            ViewFixtures.asset("a2", "other/x.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        ]
        let apps = ["a": App(name: "a", locationPolicy: .keep)]
        let grants = ["a": [Grant(asset: assets[0].id, grantedAtNanoseconds: 0)]]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: grants))
        let gone = try #require(tree.resolve(Array("library/by-date/2019".utf8)))
        let (newAssets, change) = tree.snapshot.assets(replacing: [assets[0].id]) { _ in [] }
        #expect(change == LibraryChange(removed: [0], moved: [LibraryChange.Move(from: 1, to: 0)]))
        let snapshot = LibrarySnapshot(assets: newAssets, apps: apps, grants: grants)
        let (next, changes) = try #require(tree.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()))
        #expect(ViewFixtures.names(next, "apps/a") == [])
        #expect(ViewFixtures.names(next, "library/by-date") == ["2024"])
        #expect(ViewFixtures.names(next, "library/folders") == ["other"])
        #expect(ViewFixtures.names(next, "library/by-camera") == [ViewTree.unknownCamera])
        #expect(next.node(inode: gone.inode) == nil)
        #expect(changes.removedEntries.contains(ViewEntry(parent: ViewInode.byDate, name: Array("2019".utf8))))
        #expect(next.asset(of: try #require(next.resolve(Array("library/folders/other/x.jpg".utf8))))?.id == assets[1].id)
    }

    @Test func aNewFolderWhoseNameAFileHoldsIsLeftToAFullBuild() throws {
        let assets = [ViewFixtures.asset("b1", "f/sub", taken: ViewFixtures.date(2024, 1, 1))]
        let added = ViewFixtures.asset("b2", "f/sub/inner.jpg", taken: ViewFixtures.date(2024, 1, 1))
        let unseen = ViewFixtures.build(LibrarySnapshot(assets: assets))
        let (newAssets, change) = unseen.snapshot.assets(replacing: [added.id]) { _ in [added] }
        let snapshot = LibrarySnapshot(assets: newAssets)
        // Nobody saw the file's name: the patch goes ahead and the file is named around the folder.
        let patched = try #require(unseen.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()))
        #expect(ViewFixtures.names(patched.tree, "library/folders/f") == ["sub", "sub~0000"])
        #expect(
            ViewFixtures.names(patched.tree, "library/folders/f") == ViewFixtures.names(ViewFixtures.build(snapshot), "library/folders/f"))
        // Shown, the file's name would have to change: only a build does that.
        let seen = ViewFixtures.build(LibrarySnapshot(assets: assets))
        #expect(ViewFixtures.names(seen, "library/folders/f") == ["sub"])
        #expect(seen.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()) == nil)
    }
}
