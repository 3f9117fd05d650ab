import CatalogTestSupport
import Glibc
import PhotoCore
import SystemKit
import Testing

@testable import PhotoCatalog

/// A new catalog is made whole in a private file beside its path and then named: the path
/// holds nothing or a complete catalog, a catalog another process named first is kept, and
/// what a crash left beside the path is removed, never opened.
@Suite("catalog creation")
struct CatalogCreationTests {
    static let library = Array("/photos".utf8)

    static func names(in directory: TemporaryDirectory) -> [String] {
        ((try? SystemKit.FileSystem.names(inDirectory: directory.path)) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    @Test func aNewCatalogIsCompleteInWALModeWithNoPrivateFileLeft() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        let catalog = try Catalog.open(at: path, library: Self.library)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        #expect(try catalog.libraryRoot == Self.library)
        #expect(CatalogFileModeTests.mode(path) == 0o600)
        // Bytes 18 and 19 of the header are 2 in a WAL database.
        let header = try #require(FileOps.read(Array(path.utf8)))
        #expect(header.count > 100 && header[18] == 2 && header[19] == 2)
        #expect(!Self.names(in: directory).contains { $0.contains(CatalogCreation.marker) }, "\(Self.names(in: directory))")
        try catalog.replaceAccessState(apps: ["a": App(name: "a")], grants: [:])
        #expect(try Catalog.open(at: path, library: Self.library).apps().keys.sorted() == ["a"])
    }

    @Test func aCatalogAnotherMadeMeanwhileIsKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        let building = try #require(try CatalogCreation.build(beside: path, library: Self.library))
        // Another process names its catalog first and saves an app in it.
        try Catalog.open(at: path, library: Self.library).replaceAccessState(apps: ["theirs": App(name: "theirs")], grants: [:])
        #expect(try CatalogCreation.publish(building, at: path) == false)
        #expect(!Self.names(in: directory).contains { $0.contains(CatalogCreation.marker) }, "\(Self.names(in: directory))")
        #expect(try Catalog.open(at: path, library: Self.library).apps().keys.sorted() == ["theirs"])
    }

    @Test func whatACrashLeftBesideIsRemovedAndARunningMakersFileIsKept() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        // No process has this id (above any pid_max); process 1 always runs.
        let crashed = path + CatalogCreation.marker + "\(Int32.max)-7"
        let running = path + CatalogCreation.marker + "1-7"
        for file in [crashed, crashed + "-wal", running] { try FileOps.write(Array("half a catalog".utf8), to: Array(file.utf8)) }
        let catalog = try Catalog.open(at: path, library: Self.library)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        let left = Self.names(in: directory).filter { $0.contains(CatalogCreation.marker) }
        #expect(left == ["catalog.sqlite" + CatalogCreation.marker + "1-7"])
    }

    @Test func aSecondNameACrashLeftBesideAnExistingCatalogIsRemoved() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        _ = try Catalog.open(at: path, library: Self.library)
        // A crash after the link, before the private name was removed.
        let crashed = path + CatalogCreation.marker + "\(Int32.max)-7"
        #expect(link(path, crashed) == 0)
        _ = try Catalog.open(at: path, library: Self.library)
        #expect(!Self.names(in: directory).contains { $0.contains(CatalogCreation.marker) }, "\(Self.names(in: directory))")
    }

    @Test func anEmptyFileAtThePathIsOpenedInPlaceAsBefore() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.string + "/catalog.sqlite"
        try FileOps.write([], to: Array(path.utf8))
        #expect(try CatalogCreation.makeIfMissing(at: path, library: Self.library) == false)
        let catalog = try Catalog.open(at: path, library: Self.library)
        #expect(try catalog.schemaVersion == Schema.currentVersion)
        #expect(try catalog.libraryRoot == Self.library)
    }
}
