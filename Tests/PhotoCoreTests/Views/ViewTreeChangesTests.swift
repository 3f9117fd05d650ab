import PhotoCore
import Testing

@Suite("ViewTree inode stability and change sets")
struct ViewTreeChangesTests {
    let base = [
        ViewFixtures.asset("a1", "p/one.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        ViewFixtures.asset("a2", "p/two.jpg", taken: ViewFixtures.date(2024, 1, 2)),
    ]

    func inode(_ tree: ViewTree, _ path: String) -> UInt64? { tree.resolve(Array(path.utf8))?.inode }

    @Test func inodesSurviveUnrelatedChangesAndFixedNodesAreSmall() {
        let before = ViewFixtures.build(LibrarySnapshot(assets: base))
        let after = ViewFixtures.build(
            LibrarySnapshot(assets: base + [ViewFixtures.asset("a3", "r/three.jpg", taken: ViewFixtures.date(2023, 1, 1))]),
            previous: before)
        for path in ["library/all/one.jpg", "library/folders/p/two.jpg", "library/by-date/2024/01/02/two.jpg", "library/folders/p"] {
            #expect(inode(before, path) != nil)
            #expect(inode(before, path) == inode(after, path))
            #expect(inode(before, path)! >= ViewInode.firstDerived)
        }
        #expect(inode(after, "library/all") == ViewInode.all)
        #expect(inode(after, ".picker") == ViewInode.picker)
    }

    /// A library file's number is its view and asset: a move to another folder keeps it (the
    /// same bytes), and only the old name is forgotten.
    @Test func aRenameInsideTheLibraryKeepsTheFileInodesAndForgetsTheOldName() {
        let before = ViewFixtures.build(LibrarySnapshot(assets: base))
        var moved = base
        moved[0].path = LibraryPath("s/one.jpg")
        let after = ViewFixtures.build(LibrarySnapshot(assets: moved), previous: before)
        #expect(inode(before, "library/all/one.jpg") == inode(after, "library/all/one.jpg"))
        #expect(inode(after, "library/folders/s/one.jpg") == inode(before, "library/folders/p/one.jpg"))
        #expect(inode(after, "library/folders/p/one.jpg") == nil)
        let changes = before.changes(to: after)
        #expect(changes.removedEntries.contains(ViewEntry(parent: inode(before, "library/folders/p")!, name: Array("one.jpg".utf8))))
        #expect(changes.invalidatedInodes.contains(ViewInode.folders))  // gained `s`
        #expect(!changes.invalidatedInodes.contains(inode(before, "library/all/one.jpg")!))
        #expect(!changes.invalidatedInodes.contains(inode(before, "library/folders/p/one.jpg")!))
    }

    @Test func revokingAGrantDropsTheEntryAndTheInode() throws {
        let apps = ["e": App(name: "e", locationPolicy: .keep)]
        let both = [Grant(asset: base[0].id, grantedAtNanoseconds: 1), Grant(asset: base[1].id, grantedAtNanoseconds: 2)]
        let before = ViewFixtures.build(LibrarySnapshot(assets: base, apps: apps, grants: ["e": both]))
        let after = ViewFixtures.build(LibrarySnapshot(assets: base, apps: apps, grants: ["e": [both[1]]]), previous: before)
        let revoked = try #require(inode(before, "apps/e/one.jpg"))
        #expect(after.node(inode: revoked) == nil)
        let changes = before.changes(to: after)
        let appDirectory = try #require(inode(before, "apps/e"))
        #expect(changes.removedEntries == [ViewEntry(parent: appDirectory, name: Array("one.jpg".utf8))])
        #expect(Set(changes.invalidatedInodes) == [revoked, appDirectory])
    }

    @Test func changedBytesInvalidateTheInode() {
        let before = ViewFixtures.build(LibrarySnapshot(assets: base))
        // Looked up first, as the kernel must have done to hold the inodes.
        let shown = [
            "library/all/two.jpg", "library/folders/p/two.jpg", "library/by-date/2024/01/02/two.jpg",
            "library/by-camera/Unknown camera/two.jpg",
        ].compactMap { inode(before, $0) }
        #expect(shown.count == 4)
        var modified = base
        modified[1].size = 2000
        let after = ViewFixtures.build(LibrarySnapshot(assets: modified), previous: before)
        let changes = before.changes(to: after)
        #expect(changes.removedEntries.isEmpty)
        #expect(Set(changes.invalidatedInodes) == Set(shown))
    }

    @Test func identicalSnapshotsNeedNoInvalidation() {
        let before = ViewFixtures.build(LibrarySnapshot(assets: base))
        #expect(before.changes(to: ViewFixtures.build(LibrarySnapshot(assets: base), previous: before)).isEmpty)
    }

    @Test func hundredThousandAssetsBuildAndLookUp() throws {
        let assets = (0..<100_000).map { i -> Asset in
            let hex = String(i, radix: 16)
            return ViewFixtures.asset(
                String(repeating: "0", count: 12 - hex.count) + hex, "f\(i % 100)/IMG_\(i % 50_000).jpg",
                taken: ViewFixtures.date(2000 + i % 20, 1 + i % 12, 1 + i % 28))
        }
        let clock = ContinuousClock()
        var tree: ViewTree?
        let elapsed = clock.measure { tree = ViewFixtures.build(LibrarySnapshot(assets: assets)) }
        let built = try #require(tree)
        #expect(built.childCount(of: ViewInode.all) == 100_000)
        #expect(Set(built.children(of: ViewInode.all).map(\.name)).count == 100_000)
        #expect(built.resolve(Array("library/folders/f7/IMG_7.jpg".utf8)) != nil)
        print("built a 100,000-asset tree (\(built.nodeCount) nodes) in \(elapsed)")
    }
}
