import Testing

@testable import PhotoCore

/// The tree's lookup tables (by inode, by parent and name) when the tree holds many more
/// nodes than the builder estimated from the asset count: every app view grants every
/// asset, so the tables must grow while nodes are added, and still find every node.
@Suite("ViewTree lookup tables")
struct ViewTreeTablesTests {
    /// Four nodes per asset in the library views: a stored node's size is paid four million
    /// times at 1,000,000 assets (name span and scope index share one word, kind and
    /// representation another).
    @Test func aStoredNodeTakesFiveWords() {
        #expect(MemoryLayout<PartNode>.stride <= 40)
        #expect(MemoryLayout<NameSpan>.size <= 6)
    }

    /// A file of the library views that keeps its asset's file name stores no name: only the
    /// names a directory changes (a clash) are kept.
    @Test func aLibraryFileThatKeepsItsFileNameStoresNoName() {
        let assets = [
            ViewFixtures.asset("1", "a/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 2), make: "Canon"),
            ViewFixtures.asset("2", "b/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 2), make: "Canon"),
        ]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets))
        let views = ["library/all", "library/by-date/2024/01/02", "library/by-camera/Canon", "library/folders/a"]
        let kept = views.compactMap { path -> NameExceptions? in
            tree.resolve(Array(path.utf8)).flatMap { tree.files.directory(inode: $0.inode)?.exceptions(in: tree.snapshot.assets) }
        }
        #expect(kept.count == 4)
        // The second asset's name clashes in three views: only its suffix length is stored.
        #expect(kept[0].count == 1)
        #expect(kept[0].suffixed == [1: 4])
        #expect(kept[0].name(of: 1, in: tree.snapshot.assets) == Array("IMG_1~0000.jpg".utf8))
        #expect(kept[3].isEmpty)
        #expect(ViewFixtures.names(tree, "library/all") == ["IMG_1.jpg", "IMG_1~0000.jpg"])
        #expect(ViewFixtures.names(tree, "library/folders/b") == ["IMG_1.jpg"])
        // No stored node per file: the library part holds the directories only.
        #expect(tree.library.liveCount == 14)
        #expect(tree.nodeCount == 14 + 8)
    }

    /// A name that is not a suffixed form of the file name is kept whole.
    @Test func nameExceptionsKeepSuffixLengthsOrWholeNames() throws {
        let id = try #require(AssetID("0123456789ab"))
        var exceptions = NameExceptions()
        exceptions.set(Array("a~012345.jpg".utf8), of: 3, fileName: Array("a.jpg".utf8), id: id)
        exceptions.set(Array("a_b.jpg".utf8), of: 4, fileName: Array("a/b.jpg".utf8), id: id)
        exceptions.set(Array("c.jpg".utf8), of: 5, fileName: Array("c.jpg".utf8), id: id)
        #expect(exceptions.suffixed == [3: 6])
        #expect(exceptions.named == [4: Array("a_b.jpg".utf8)])
        let patched = exceptions.patched(dropping: [4], moving: [3: 9])
        #expect(patched.suffixed == [9: 6])
        #expect(patched.named.isEmpty)
    }

    /// A suffixed name made in place is the name `ViewNaming` made.
    @Test func suffixedNamesReadInPlaceAreViewNamingsNames() throws {
        let files = ["IMG_1.jpg", "noextension", ".hidden", "a.b.c.jpeg", "x." + String(repeating: "e", count: 40)]
        let assets = files.enumerated().map { ViewFixtures.asset("3f9a1c0d2b7\($0.offset)", "f/\($0.element)") }
        var exceptions = NameExceptions()
        for (index, asset) in assets.enumerated() {
            for digits in [4, 7, 12] {
                let name = ViewNaming.inserting(suffix: Array(asset.id.rawValue.utf8.prefix(digits)), into: Array(files[index].utf8))
                exceptions.set(name, of: Int32(index), fileName: Array(files[index].utf8), id: asset.id)
                #expect(exceptions.suffixed[Int32(index)] == UInt8(digits))
                let read = exceptions.withName(of: Int32(index), in: ChunkedArray(assets)) { Array($0) }
                #expect(read == name)
            }
        }
    }

    /// A library file's inode number says which view and asset it is, and no hashed number
    /// can be one.
    @Test func libraryFileInodesAreTheViewAndTheAssetID() throws {
        let id = try #require(AssetID("0123456789ab"))
        let inode = ViewInode.libraryFile(view: .byCamera, asset: id)
        #expect(inode == UInt64(1) << 63 | UInt64(2) << 48 | 0x0123_4567_89ab)
        #expect(ViewInode.libraryFile(inode)?.view == .byCamera)
        #expect(ViewInode.libraryFile(inode)?.asset == id)
        #expect(ViewInode.libraryFile(ViewInode.directory(path: Array("library/all".utf8))) == nil)
        for n in 0..<1000 { #expect(ViewInode.directory(path: Array("d\(n)".utf8)) & ViewInode.libraryFileBit == 0) }
    }

    @Test func everyNodeIsFoundByInodeAndByNameAfterTheTablesGrew() throws {
        let assets = (0..<40).map { n in
            ViewFixtures.asset(
                String(n, radix: 16), "f\(n % 3)/IMG_\(n % 7).jpg", taken: ViewFixtures.date(2024, 1 + n % 12, 1 + n % 28),
                make: "Make\(n % 4)")
        }
        var apps: [String: App] = [:]
        var grants: [String: [Grant]] = [:]
        for a in 0..<30 {
            let name = "app\(a)"
            apps[name] = App(name: name, locationPolicy: .keep)
            grants[name] = assets.enumerated().map { Grant(asset: $0.element.id, grantedAtNanoseconds: Int64($0.offset)) }
        }
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: grants))
        // 40 assets × (4 library views + 30 apps) files, plus directories: well past 4 × 40.
        #expect(tree.nodeCount > 40 * 34)
        ViewFixtures.checkTables(tree)
        #expect(tree.lookup(parent: 1, name: Array("nothing".utf8)) == nil)
        #expect(tree.node(inode: 999) == nil)
        #expect(ViewFixtures.names(tree, "apps/app29").count == 40)
    }
}

/// Removing from the open-addressing table moves later entries of a probe run back, so
/// that every remaining position is still found and removed ones are not.
@Suite("Node table removal")
struct NodeTableRemovalTests {
    @Test func remainingPositionsAreFoundAfterRemovalsInCrowdedRuns() {
        // Hashes from a few values only: long probe runs that wrap around the table's end.
        let hashes = (0..<200).map { 505 + $0 % 7 }
        var table = NodeTable(capacity: 200)
        for position in 0..<200 { table.insert(Int32(position), hash: hashes[position]) }
        var removed = Set<Int32>()
        for position in stride(from: 0, to: 200, by: 3) {
            table.remove(Int32(position), hash: hashes[position]) { hashes[Int($0)] }
            removed.insert(Int32(position))
        }
        #expect(table.count == 200 - removed.count)
        for position in 0..<200 {
            let found = table.find(hash: hashes[position]) { $0 == Int32(position) }
            #expect(found == (removed.contains(Int32(position)) ? nil : Int32(position)))
        }
    }

    /// A table filled at once in slot order (`insertAll`, as a mount builds its id table)
    /// finds, removes and grows as one filled position by position does, crowded runs that
    /// wrap around the end included.
    @Test(arguments: [0, 1, 200, 5000])
    func aTableFilledAtOnceWorksAsOneFilledInTurn(count: Int) {
        let hashes = (0..<count).map { $0 % 3 == 0 ? 1021 + $0 % 5 : ($0 &* 2_654_435_761) >> 7 }
        var table = NodeTable(capacity: count)
        table.insertAll(count: count) { hashes[Int($0)] }
        #expect(table.count == count)
        #expect(table.positions.sorted() == (0..<count).map { Int32($0) })
        for position in 0..<count {
            #expect(table.find(hash: hashes[position]) { $0 == Int32(position) } == Int32(position))
        }
        for position in stride(from: 0, to: count, by: 2) {
            table.remove(Int32(position), hash: hashes[position]) { hashes[Int($0)] }
        }
        table.grow { hashes[Int($0)] }
        for position in 0..<count {
            let found = table.find(hash: hashes[position]) { $0 == Int32(position) }
            #expect(found == (position % 2 == 0 ? nil : Int32(position)))
        }
    }
}
