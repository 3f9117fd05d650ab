import PhotoCore
import Testing

/// How the library build groups files into folders and cameras when the catalog's order
/// interleaves them: the builder takes shortcuts for runs of files that share a folder or a
/// camera, and these cases break such runs.
@Suite("ViewTree grouping")
struct ViewTreeGroupingTests {
    @Test func folderRunsBrokenBySubfoldersAndOddPathsMeetInOneDirectory() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("5", "a/b/zz.jpg"),
            ViewFixtures.asset("1", "a/b/x.jpg"),
            ViewFixtures.asset("2", "a/b/y/z.jpg"),
            ViewFixtures.asset("3", "a//b/w.jpg"),
            ViewFixtures.asset("4", "a/b/v.jpg"),
            ViewFixtures.asset("6", "a/bb/x.jpg"),
            ViewFixtures.asset("7", "a/b/y/u.jpg"),
        ])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/folders/a") == ["b", "bb"])
        #expect(ViewFixtures.names(tree, "library/folders/a/b") == ["v.jpg", "w.jpg", "x.jpg", "y", "zz.jpg"])
        #expect(ViewFixtures.names(tree, "library/folders/a/b/y") == ["u.jpg", "z.jpg"])
        #expect(ViewFixtures.names(tree, "library/folders/a/bb") == ["x.jpg"])
        let odd = tree.resolve(Array("library/folders/a/b/w.jpg".utf8))
        #expect(odd.flatMap { tree.asset(of: $0) }?.id.rawValue == "000000000003")
    }

    @Test func cameraPairsWithTheSameNameShareADirectoryAcrossRuns() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("1", "p/1.jpg", taken: ViewFixtures.date(2024, 1, 1), make: "Canon", model: nil),
            ViewFixtures.asset("2", "p/2.jpg", taken: ViewFixtures.date(2024, 1, 2), make: "Nikon", model: "D90"),
            ViewFixtures.asset("3", "p/3.jpg", taken: ViewFixtures.date(2024, 1, 3), make: nil, model: "Canon"),
            ViewFixtures.asset("4", "p/4.jpg", taken: ViewFixtures.date(2024, 1, 4), make: "Canon", model: nil),
            ViewFixtures.asset("5", "p/5.jpg", taken: ViewFixtures.date(2024, 1, 5)),
        ])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/by-camera") == ["Canon", "Nikon D90", "Unknown camera"])
        #expect(ViewFixtures.names(tree, "library/by-camera/Canon") == ["1.jpg", "3.jpg", "4.jpg"])
        #expect(ViewFixtures.names(tree, "library/by-camera/Nikon D90") == ["2.jpg"])
    }

    @Test func fileNamesComeFromTheLastNonEmptyComponent() {
        let snapshot = LibrarySnapshot(assets: [
            ViewFixtures.asset("1", "x/IMG_1.jpg", taken: ViewFixtures.date(2024, 1, 1)),
            ViewFixtures.asset("2", "y//IMG_2.jpg", taken: ViewFixtures.date(2024, 1, 2)),
            ViewFixtures.asset("3", "IMG_3.jpg", taken: ViewFixtures.date(2024, 1, 3)),
        ])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "library/all") == ["IMG_1.jpg", "IMG_2.jpg", "IMG_3.jpg"])
    }
}
