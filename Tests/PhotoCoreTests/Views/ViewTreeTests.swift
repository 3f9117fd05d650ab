import PhotoCore
import Testing

@Suite("ViewTree layout")
struct ViewTreeLayoutTests {
    let snapshot = LibrarySnapshot(assets: [
        ViewFixtures.asset(
            "b1", "Trips/2024/IMG_0002.jpg", taken: ViewFixtures.date(2024, 6, 15, 14), make: "Canon", model: "Canon EOS 40D"),
        ViewFixtures.asset("a1", "Trips/2024/IMG_0001.jpg", taken: ViewFixtures.date(2024, 6, 15, 9), make: "Apple", model: "iPhone 12"),
        ViewFixtures.asset("c1", "loose.png", mtime: 86_400 * 1_000_000_000 * 365),
        ViewFixtures.asset("d1", "Trips/old.jpg", taken: ViewFixtures.date(1999, 12, 31), make: "NIKON", model: nil),
    ])

    @Test func rootAndLibraryLayout() {
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "") == [".picker", "library", "apps"])
        #expect(ViewFixtures.names(tree, "library") == ["all", "by-date", "by-camera", "folders"])
    }

    @Test func allIsOrderedByCaptureDateWithMtimeFallback() {
        let tree = ViewFixtures.build(snapshot)
        // loose.png has no EXIF date: its mtime (1971-01-01) places it first.
        #expect(ViewFixtures.names(tree, "library/all") == ["loose.png", "old.jpg", "IMG_0001.jpg", "IMG_0002.jpg"])
    }

    @Test func byDateUsesZeroPaddedLocalDate() {
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/by-date") == ["1971", "1999", "2024"])
        #expect(ViewFixtures.names(tree, "library/by-date/2024/06/15") == ["IMG_0001.jpg", "IMG_0002.jpg"])
        #expect(ViewFixtures.names(tree, "library/by-date/1971/01/01") == ["loose.png"])
    }

    @Test func byCameraJoinsMakeAndModelAndNamesTheUnknown() {
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/by-camera") == ["Apple iPhone 12", "Canon EOS 40D", "NIKON", "Unknown camera"])
        #expect(ViewFixtures.names(tree, "library/by-camera/Unknown camera") == ["loose.png"])
    }

    @Test func foldersMirrorTheLibraryByName() {
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/folders") == ["Trips", "loose.png"])
        #expect(ViewFixtures.names(tree, "library/folders/Trips") == ["2024", "old.jpg"])
        #expect(ViewFixtures.names(tree, "library/folders/Trips/2024") == ["IMG_0001.jpg", "IMG_0002.jpg"])
    }

    @Test func sameAssetInTwoViewsIsTwoNodes() throws {
        let tree = ViewFixtures.build(snapshot)
        let inAll = try #require(tree.resolve(Array("library/all/old.jpg".utf8)))
        let inFolders = try #require(tree.resolve(Array("library/folders/Trips/old.jpg".utf8)))
        #expect(inAll.inode != inFolders.inode)
        #expect(tree.asset(of: inAll)?.id == tree.asset(of: inFolders)?.id)
    }

    @Test(arguments: [
        "library/all/nope.jpg", "library/all/000000000a1", "library/folders/Trips/2024/..x", "apps/editor", "library/by-date/2024/13",
    ])
    func unknownNamesAreNotThere(path: String) {
        let tree = ViewFixtures.build(snapshot)
        #expect(tree.resolve(Array(path.utf8)) == nil)
    }

    @Test func dotDotLeadsToTheParent() throws {
        let tree = ViewFixtures.build(snapshot)
        let trips = try #require(tree.resolve(Array("library/folders/Trips".utf8)))
        #expect(tree.lookup(parent: trips.inode, name: Array("..".utf8))?.inode == ViewInode.folders)
    }

    @Test func bytesThatAreNotUTF8AndNewlinesSurvive() throws {
        let odd: [UInt8] = [0x66, 0xFF, 0x0A, 0x20, 0x2E, 0x6A, 0x70, 0x67]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: [ViewFixtures.asset("e1", LibraryPath(bytes: Array("dir/".utf8) + odd))]))
        let all = try #require(tree.node(inode: ViewInode.all))
        #expect(tree.children(of: all.inode).map(\.name) == [odd])
        #expect(tree.resolve(Array("library/folders/dir/".utf8) + odd) != nil)
    }
}
