import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoMetadata
import Testing

@testable import PhotoCatalog

/// The mount's startup check: a scan of an unchanged library needs no index run, and any
/// change an index run would record (new, changed, touched, moved, deleted files, and
/// failures that came or went) makes `needsRun` say so. Real files, a real catalog.
@Suite("Library scan")
struct LibraryScanTests {
    /// A library of three photos and one file that is not a photo, indexed once.
    final class Fixture {
        let library: TestLibrary
        var catalog: Catalog { library.catalog }
        var indexer: Indexer { library.indexer }

        init() throws {
            library = try TestLibrary(folders: ["trip"], photos: ["a.jpg": "a", "trip/b.jpg": "b", "trip/c.jpg": "c"], indexed: false)
            try FileOps.write(Array("not a photo".utf8), to: library.path("notes.txt"))
            _ = try library.indexer.run()
        }

        func lib(_ path: String) -> [UInt8] { library.path(path) }

        func needsRun() throws -> Bool { try indexer.needsRun(try indexer.scan(), snapshot: try catalog.snapshot()) }
    }

    @Test func unchangedLibraryNeedsNoRun() throws {
        let f = try Fixture()
        #expect(try f.needsRun() == false)
    }

    /// A link is recorded as a file that is not an asset: once indexed, it is no news.
    @Test func anIndexedLinkNeedsNoRun() throws {
        let f = try Fixture()
        try FileOps.symlink(target: Array("a.jpg".utf8), at: f.lib("link.jpg"))
        #expect(try f.needsRun())
        _ = try f.indexer.run()
        #expect(try f.needsRun() == false)
        try FileOps.unlink(f.lib("link.jpg"))
        #expect(try f.needsRun(), "a link gone")
    }

    /// The check finds assets by path: a snapshot whose assets come in another order is judged alike.
    @Test func assetsInAnyOrderAreJudgedAlike() throws {
        let f = try Fixture()
        let snapshot = try f.catalog.snapshot()
        let reversed = LibrarySnapshot(assets: Array(snapshot.assets.reversed()), apps: snapshot.apps, grants: snapshot.grants)
        #expect(reversed.assets.map(\.path) != snapshot.assets.map(\.path))
        #expect(try f.indexer.needsRun(try f.indexer.scan(), snapshot: reversed) == false)
        FileOps.setMtime(f.lib("trip/b.jpg"), seconds: 1_000_000)
        #expect(try f.indexer.needsRun(try f.indexer.scan(), snapshot: reversed))
    }

    /// Each change, made to a freshly indexed library.
    static let changes: [(String, @Sendable (Fixture) throws -> Void)] = [
        ("new file", { try FileOps.write(TinyJPEG.bytes(comment: "d"), to: $0.lib("trip/d.jpg")) }),
        ("new file that is not a photo", { try FileOps.write(Array("x".utf8), to: $0.lib("more.txt")) }),
        ("content changed, same size", { try FileOps.write(TinyJPEG.bytes(comment: "z"), to: $0.lib("a.jpg")) }),
        ("content changed, other size", { try FileOps.write(TinyJPEG.bytes(comment: "a longer comment"), to: $0.lib("a.jpg")) }),
        ("touched", { FileOps.setMtime($0.lib("trip/b.jpg"), seconds: 1_000_000) }),
        ("renamed", { try FileOps.rename($0.lib("trip/c.jpg"), $0.lib("trip/c2.jpg")) }),
        ("folder renamed", { try FileOps.rename($0.lib("trip"), $0.lib("journey")) }),
        ("deleted", { try FileOps.unlink($0.lib("trip/b.jpg")) }),
        ("failure deleted", { try FileOps.unlink($0.lib("notes.txt")) }),
        ("failure touched", { FileOps.setMtime($0.lib("notes.txt"), seconds: 1_000_000) }),
    ]

    @Test(arguments: changes.indices)
    func anyChangeNeedsARunAndTheRunOverTheScanRecordsIt(_ index: Int) throws {
        let (name, change) = Self.changes[index]
        let f = try Fixture()
        try change(f)
        let scan = try f.indexer.scan()
        #expect(try f.indexer.needsRun(scan, snapshot: try f.catalog.snapshot()), "\(name)")
        _ = try f.indexer.run(scan: scan)
        // The run over the scan recorded the change: the library is current again.
        #expect(try f.needsRun() == false, "\(name): still new after the run")
    }

    @Test func scanCallsEnteringForEveryFolderItWalks() throws {
        let f = try Fixture()
        try FileOps.makeDirectories(f.lib("trip/deep/er"))
        var entered: [String] = []
        let scan = try f.indexer.scan(entering: { entered.append($0.display) })
        #expect(entered.sorted() == ["", "trip", "trip/deep", "trip/deep/er"])
        #expect(scan.folders.map(\.display).sorted() == entered.sorted())
        #expect(scan.fileCount == 4)
    }

    @Test func anEmptySnapshotOfALibraryWithFilesNeedsARun() throws {
        let f = try Fixture()
        #expect(try f.indexer.needsRun(try f.indexer.scan(), snapshot: LibrarySnapshot()))
    }
}
