import Testing

@testable import PhotoCore

/// The library views' files are named per directory on first use, and a large directory is
/// named without making names (`LibraryNaming.fastSuffixes`): both must give exactly the
/// names `ViewNaming.assign` gives.
struct LibraryNamingTests {
    /// A deterministic generator, so a failure can be replayed.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state >> 11 ^ state
        }
    }

    /// The reference: `ViewNaming.assign` over the members in priority order, as a
    /// directory's listing of (asset position, name).
    static func reference(_ members: [Int32], view: LibraryView, reserved: [[UInt8]], assets: ChunkedArray<Asset>) -> [(Int32, [UInt8])] {
        let ordered = LibraryNaming.priorityOrder(members, view: view, assets: assets)
        let candidates = ordered.map { position in
            ViewNaming.Candidate(
                base: ViewNaming.sanitized(assets[Int(position)].path.fileName), id: assets[Int(position)].id, previous: nil)
        }
        let names = ViewNaming.assign(candidates, reserved: Set(reserved.map(NameKey.init)))
        var listed = Array(zip(ordered, names))
        if view.listsByName { listed.sort { ViewNaming.precedes($0.1, $1.1) } }
        return listed
    }

    static func named(_ members: [Int32], view: LibraryView, reserved: [[UInt8]], assets: ChunkedArray<Asset>) -> [(Int32, [UInt8])] {
        let named = LibraryNaming.name(members, view: view, reserved: reserved, assets: assets, previous: nil)
        return named.members.map { ($0, named.withName(of: $0, in: assets) { Array($0) }) }
    }

    /// Random directories with many clashes, names that look like suffixed names, names
    /// that must be made safe, names near 255 bytes, and reserved names: the fast naming
    /// (or its fallback) gives the reference's names in the reference's order.
    @Test(arguments: [LibraryView.all, .byDate, .folders])
    func namingMatchesViewNamingAssign(view: LibraryView) {
        var random = Generator(state: 42 &+ UInt64(view.rawValue))
        let long: String = String(repeating: "x", count: 248) + ".jpg"
        let clean: [String] = [
            "IMG_0001.jpg", "IMG_0002.jpg", "a.b.c", "noext", ".hidden", "IMG_0001~0000.jpg", "IMG_0001~00000.jpg", "Ünï.jpg",
        ]
        // A name to make safe and one too long for a suffix: every fourth round.
        let awkward = clean + [long, ".."]
        var fast = 0
        for round in 0..<200 {
            let count = Int(random.next() % 40) + 1
            var assets: [Asset] = []
            for index in 0..<count {
                // Ids sharing their first digits make the 4-digit suffixes clash too.
                let high: UInt64 = random.next() % 3
                let number: UInt64 = high << 40 | UInt64(index)
                let id = String(number, radix: 16)
                let pool = round % 4 == 0 ? awkward : clean
                let name = pool[Int(random.next() % UInt64(pool.count))]
                let day = Int(random.next() % 3) + 1
                assets.append(ViewFixtures.asset(id, "f\(round)/\(index)/\(name)", taken: ViewFixtures.date(2024, 1, day)))
            }
            let snapshotAssets = ChunkedArray(assets)
            let members = (0..<count).map { Int32($0) }.shuffled(using: &random)
            let reserved = random.next() % 4 == 0 ? [Array("IMG_0002.jpg".utf8)] : []
            let expected = Self.reference(members, view: view, reserved: reserved, assets: snapshotAssets)
            let got = Self.named(members, view: view, reserved: reserved, assets: snapshotAssets)
            #expect(got.map(\.0) == expected.map(\.0), "round \(round): order")
            #expect(got.map(\.1) == expected.map(\.1), "round \(round): names")
            let ordered = LibraryNaming.priorityOrder(members, view: view, assets: snapshotAssets)
            if LibraryNaming.fastSuffixes(ordered, reserved: Set(reserved.map(NameKey.init)), assets: snapshotAssets) != nil { fast += 1 }
        }
        // Both ways were compared: most rounds are named the fast way, the rest the general way.
        #expect(fast > 50 && fast < 200)
    }

    /// Building a tree names nothing; looking at one directory names that directory only.
    @Test func directoriesAreNamedOnFirstUse() {
        let assets = [
            ViewFixtures.asset("1", "a/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 2), make: "Canon"),
            ViewFixtures.asset("2", "b/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 3), make: "Canon"),
        ]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets))
        #expect(tree.files.directories.allSatisfy { $0?.isNamed == false })
        #expect(ViewFixtures.names(tree, "library/all") == ["IMG_1.jpg", "IMG_1~0000.jpg"])
        let named = tree.files.directories.compactMap { $0 }.filter(\.isNamed).map(\.inode)
        #expect(named == [ViewInode.all])
    }

    /// A file keeps the name it was shown under across a change (a newcomer with an earlier
    /// date does not take it); in a directory nobody looked at, names are made afresh, as a
    /// new mount would make them.
    @Test func shownNamesAreKeptAndUnshownOnesAreMadeAfresh() {
        let first = ViewFixtures.asset("1", "a/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 2), make: "Canon")
        let earlier = ViewFixtures.asset("2", "b/IMG_1.jpg", taken: ViewFixtures.date(2023, 1, 2), make: "Canon")
        let before = ViewFixtures.build(LibrarySnapshot(assets: [first]))
        // Only library/all is looked at.
        #expect(ViewFixtures.names(before, "library/all") == ["IMG_1.jpg"])
        let after = ViewFixtures.build(LibrarySnapshot(assets: [first, earlier]), previous: before)
        // Shown: asset 1 keeps the plain name; the newcomer (earlier, first in the listing) is suffixed.
        #expect(ViewFixtures.names(after, "library/all") == ["IMG_1~0000.jpg", "IMG_1.jpg"])
        // Never shown: the earlier photo takes the plain name, as on a fresh mount.
        #expect(ViewFixtures.names(after, "library/by-camera/Canon") == ["IMG_1.jpg", "IMG_1~0000.jpg"])
        let fresh = ViewFixtures.build(LibrarySnapshot(assets: [first, earlier]))
        #expect(ViewFixtures.names(fresh, "library/by-camera/Canon") == ViewFixtures.names(after, "library/by-camera/Canon"))
    }

    /// A patch leaves a directory nobody named unnamed, with the files the change leaves in
    /// it; named later it equals a build's naming.
    @Test func aPatchKeepsAnUnnamedDirectoryUnnamed() throws {
        let assets = [
            ViewFixtures.asset("1", "a/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 2)),
            ViewFixtures.asset("2", "b/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 3)),
        ]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets))
        let added = ViewFixtures.asset("3", "c/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 1))
        let snapshot = LibrarySnapshot(assets: assets + [added])
        let change = LibraryChange(removed: [], added: [2], moved: [])
        let patched = try #require(tree.patching(change, to: snapshot, filters: EmptyFilterOnlyResolver()))
        #expect(patched.tree.files.directories.allSatisfy { $0?.isNamed != true })
        // Nothing was shown: no name to forget.
        #expect(patched.changes.removedEntries.isEmpty)
        let built = ViewFixtures.build(snapshot)
        for path in ["library/all", "library/folders/c", "library/by-date/2024/01/01"] {
            #expect(ViewFixtures.names(patched.tree, path) == ViewFixtures.names(built, path))
        }
        // The newcomer is the earliest: on first use it takes the plain name.
        #expect(ViewFixtures.names(patched.tree, "library/all") == ["IMG_1.jpg", "IMG_1~0000.jpg", "IMG_1~00000.jpg"])
    }
}
