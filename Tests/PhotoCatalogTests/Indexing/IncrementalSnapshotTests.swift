import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoMetadata
import Testing

@testable import PhotoCatalog

/// A mount re-reads only the rows an index run changed (`Catalog.snapshot(updating:changed:)`
/// with `IndexSummary.changedIDs`). After every kind of change that snapshot must hold
/// exactly what a full read of the catalog holds.
@Suite("Incremental snapshot after an index run")
struct IncrementalSnapshotTests {
    /// A `TestLibrary` with the snapshot a mount would hold, moved forward run by run.
    private final class Library {
        let test: TestLibrary
        var catalog: Catalog { test.catalog }
        var indexer: Indexer { test.indexer }
        var snapshot: LibrarySnapshot

        init() throws {
            test = try TestLibrary(folders: ["trip", "home"])
            snapshot = try test.catalog.snapshot()
        }

        func path(_ relative: String) -> [UInt8] { test.path(relative) }

        func write(_ relative: String, _ comment: String) throws { try test.writePhoto(relative, comment: comment) }

        /// Indexes `folders` (the watcher's scope) and moves `snapshot` forward by the
        /// changed rows only; returns the run's summary.
        @discardableResult
        func index(_ folders: [String]) throws -> IndexSummary {
            let scope = IndexScope.folders(folders.map { FolderScope(path: LibraryPath($0), recursive: false) })
            let summary = try indexer.run(scope: scope)
            snapshot = try catalog.snapshot(updating: snapshot, changed: summary.changedIDs)
            return summary
        }

        /// The incremental snapshot's assets against a fresh full read, by id.
        func expectMatchesFullRead(_ comment: Comment) throws {
            let full = try catalog.snapshot()
            let byID = { (assets: ChunkedArray<Asset>) in Dictionary(assets.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }) }
            #expect(snapshot.assets.count == full.assets.count, comment)
            #expect(byID(snapshot.assets) == byID(full.assets), comment)
        }
    }

    @Test func everyKindOfChangeMatchesAFullRead() throws {
        let library = try Library()
        try library.write("trip/a.jpg", "a")
        try library.write("trip/b.jpg", "b")
        try library.write("home/c.jpg", "c")
        #expect(try library.index(["", "trip", "home"]).new == 3)
        try library.expectMatchesFullRead("first index")

        try library.write("trip/d.jpg", "d")
        #expect(try library.index(["trip"]).new == 1)
        try library.expectMatchesFullRead("a new file")

        try library.write("trip/a.jpg", "a, edited")
        #expect(try library.index(["trip"]).changed == 1)
        try library.expectMatchesFullRead("content changed in place")

        FileOps.setMtime(library.path("trip/b.jpg"), seconds: 1_500_000_000)
        #expect(try library.index(["trip"]).touched == 1)
        try library.expectMatchesFullRead("touched: same bytes, new mtime")

        try FileOps.rename(library.path("trip/b.jpg"), library.path("trip/b renamed.jpg"))
        #expect(try library.index(["trip"]).moved == 1)
        try library.expectMatchesFullRead("renamed in its folder")

        try FileOps.rename(library.path("home/c.jpg"), library.path("trip/c.jpg"))
        #expect(try library.index(["home", "trip"]).moved == 1)
        try library.expectMatchesFullRead("moved to another folder")

        try FileOps.write(Array("not a photo".utf8), to: library.path("trip/d.jpg"))
        let failed = try library.index(["trip"])
        #expect(failed.notAssets == 1 && failed.failed == 0 && failed.removed == 1)
        try library.expectMatchesFullRead("a photo overwritten with text")

        try FileOps.unlink(library.path("trip/a.jpg"))
        #expect(try library.index(["trip"]).removed == 1)
        try library.expectMatchesFullRead("deleted")
        #expect(Set(library.snapshot.assets.map(\.path)) == [LibraryPath("trip/b renamed.jpg"), LibraryPath("trip/c.jpg")])
    }

    @Test func aWriteByAnotherConnectionIsReadInFull() throws {
        let library = try Library()
        try library.write("trip/a.jpg", "a")
        library.snapshot = try library.catalog.snapshot(updating: library.snapshot, changed: try library.indexer.run().changedIDs)
        #expect(library.snapshot.assets.count == 1)

        // Another process (here another connection) indexes a file: no summary of ours
        // names its id, so only the data_version check can bring it in.
        try library.write("home/b.jpg", "b")
        _ = try library.test.otherIndexer().run()
        library.snapshot = try library.catalog.snapshot(updating: library.snapshot, changed: [])
        #expect(Set(library.snapshot.assets.map(\.path)) == [LibraryPath("trip/a.jpg"), LibraryPath("home/b.jpg")])
        try library.expectMatchesFullRead("after another connection's index run")
    }

    /// The stored rows of a folder scope are found by a bounded range on `path`; folders
    /// whose names sort right next to each other must not leak into each other's scope.
    @Test func aFolderScopeReadsOnlyItsFolder() throws {
        let library = try Library()
        for folder in ["a", "a b", "a/b", "a0", "b"] {
            try FileOps.makeDirectories(library.path(folder))
            try library.write(folder + "/x.jpg", folder)
        }
        _ = try library.indexer.run()
        let scope = IndexScope.folders([FolderScope(path: LibraryPath("a"), recursive: false)])
        #expect(try library.catalog.storedStates(in: scope).assets.map(\.path.bytes) == [Array("a/x.jpg".utf8)])
        let recursive = IndexScope.folders([FolderScope(path: LibraryPath("a"), recursive: true)])
        #expect(
            Set(try library.catalog.storedStates(in: recursive).assets.map(\.path)) == [LibraryPath("a/x.jpg"), LibraryPath("a/b/x.jpg")])
        let last = IndexScope.folders([FolderScope(path: LibraryPath("b"), recursive: false)])
        #expect(try library.catalog.storedStates(in: last).assets.map(\.path.bytes) == [Array("b/x.jpg".utf8)])
    }
}
