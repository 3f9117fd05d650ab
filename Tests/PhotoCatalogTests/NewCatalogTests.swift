import CatalogTestSupport
import Glibc
import PhotoCore
import PhotoMetadata
import SystemKit
import Testing

@testable import PhotoCatalog

/// A new catalog is filled by an index run while it is a private file beside its path, with
/// no journal, and named only when complete: until then nothing is at the path, so a crash
/// or a failure midway leaves no catalog, and a catalog another process made meanwhile wins.
@Suite("new catalog")
struct NewCatalogTests {
    /// A library of `count` tiny JPEGs in `directory/lib`.
    static func library(in directory: TemporaryDirectory, count: Int) throws -> [UInt8] {
        for n in 0..<count {
            try FileOps.write(TinyJPEG.bytes(comment: "photo \(n)"), to: directory.child("lib/f\(n / 4)/p\(n).jpg"))
        }
        return directory.child("lib")
    }

    static func names(in directory: String) -> [String] {
        ((try? SystemKit.FileSystem.names(inDirectory: directory)) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    static func exists(_ path: String) -> Bool { (try? FileStatus.ofLink(path: path)) != nil }

    /// A library of `count` photos in a new directory, indexed into a new catalog for
    /// `c.sqlite` there that is not published yet.
    static func indexedPrivately(count: Int, batchSize: Int = 1024) throws
        -> (directory: TemporaryDirectory, library: [UInt8], path: String, new: NewCatalog)
    {
        let directory = try TemporaryDirectory()
        let photos = try Self.library(in: directory, count: count)
        let path = directory.string + "/c.sqlite"
        let new = try #require(try NewCatalog.begin(at: path, library: photos))
        _ = try Indexer(catalog: new.catalog, library: photos, analyzer: FileAnalyzer(), batchSize: batchSize).run()
        return (directory, photos, path, new)
    }

    @Test func anIndexFillsItPrivatelyAndPublishingNamesItWhole() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try Self.library(in: directory, count: 10)
        let folder = directory.string + "/catalogs"
        let path = folder + "/c.sqlite"
        let new = try #require(try NewCatalog.begin(at: path, library: library))
        #expect(new.catalog.isBuilding)
        let summary = try Indexer(catalog: new.catalog, library: library, analyzer: FileAnalyzer(), batchSize: 3).run()
        #expect(summary.new == 10)
        // Several batches are written, yet nothing is at the path (a crash now leaves no
        // catalog) and the private file has no journal or WAL beside it.
        #expect(!Self.exists(path))
        let during = Self.names(in: folder)
        #expect(during.count == 1 && during[0].hasPrefix("c.sqlite" + CatalogCreation.marker), "\(during)")
        #expect(try new.publish())
        #expect(Self.names(in: folder) == ["c.sqlite"])
        #expect(CatalogFileModeTests.mode(path) == 0o600)
        // Bytes 18 and 19 of the header are 2 in a WAL database.
        let header = try #require(FileOps.read(Array(path.utf8)))
        #expect(header.count > 100 && header[18] == 2 && header[19] == 2)
        let catalog = try Catalog.open(at: path, library: library)
        #expect(try catalog.snapshot().assets.count == 10)
        #expect(try catalog.libraryRoot == library)
        // The index again finds everything in place.
        #expect(try Indexer(catalog: catalog, library: library, analyzer: FileAnalyzer()).run().unchanged == 10)
        // The connection that filled it is closed.
        #expect(throws: CatalogError.self) { _ = try new.catalog.schemaVersion }
    }

    @Test func aDiscardedOrCrashedRunLeavesNoCatalog() throws {
        let (directory, library, path, new) = try Self.indexedPrivately(count: 5, batchSize: 2)
        defer { directory.remove() }
        // What a process killed now leaves: its private file, under an id no process has.
        let building = try #require(Self.names(in: directory.string).first { $0.contains(CatalogCreation.marker) })
        let crashed = directory.string + "/c.sqlite" + CatalogCreation.marker + "\(Int32.max)-7"
        #expect(link(directory.string + "/" + building, crashed) == 0)
        new.discard()
        #expect(Self.names(in: directory.string) == ["c.sqlite" + CatalogCreation.marker + "\(Int32.max)-7", "lib"])
        // The next open removes the leftover and makes an empty catalog: nothing of the
        // half-done run is taken for a catalog.
        let catalog = try Catalog.open(at: path, library: library)
        #expect(try catalog.snapshot().assets.isEmpty)
        #expect(!Self.names(in: directory.string).contains { $0.contains(CatalogCreation.marker) }, "\(Self.names(in: directory.string))")
    }

    @Test func aCatalogAnotherProcessMadeMeanwhileWins() throws {
        let (directory, library, path, new) = try Self.indexedPrivately(count: 4)
        defer { directory.remove() }
        try Catalog.open(at: path, library: library).replaceAccessState(apps: ["theirs": App(name: "theirs")], grants: [:])
        #expect(try new.publish() == false)
        #expect(Self.names(in: directory.string) == ["c.sqlite", "lib"])
        let catalog = try Catalog.open(at: path, library: library)
        #expect(try catalog.apps().keys.sorted() == ["theirs"])
        #expect(try catalog.snapshot().assets.isEmpty)
    }

    @Test func anExistingCatalogIsNotRebuiltAndKeepsItsWAL() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let library = try Self.library(in: directory, count: 4)
        let path = directory.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path, library: library)
        #expect(try NewCatalog.begin(at: path, library: library) == nil)
        #expect(!catalog.isBuilding)
        #expect(try Indexer(catalog: catalog, library: library, analyzer: FileAnalyzer(), batchSize: 2).run().new == 4)
        // Its writes went through the WAL, as every write to a named catalog does.
        #expect(Self.exists(path + "-wal"))
        #expect(!Self.names(in: directory.string).contains { $0.contains(CatalogCreation.marker) })
    }
}
