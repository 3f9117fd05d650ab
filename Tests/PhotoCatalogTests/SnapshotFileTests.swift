import CatalogTestSupport
import Foundation
import Glibc
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// The snapshot file a mount reads instead of the `assets` table: it holds exactly what the
/// table read holds, in the same order; any write to the assets makes it stale, and a
/// stale, damaged or foreign file is never believed (the table is read instead).
@Suite("snapshot file")
struct SnapshotFileTests {
    /// A new catalog of `records` generated assets, in a directory of its own.
    static func catalog(records: Int) throws -> (Catalog, TemporaryDirectory) {
        let dir = try TemporaryDirectory()
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        try catalog.upsert(SplitSnapshotTests.records(count: records))
        return (catalog, dir)
    }

    private static func stamp(_ catalog: Catalog) throws -> SnapshotFile.Stamp {
        try catalog.connection.withLock { (c: inout Catalog.Connection) throws(CatalogError) -> SnapshotFile.Stamp in
            try Catalog.snapshotStamp(in: c.db)
        }
    }

    @Test func aSavedFileIsReadBackAsTheTableReadInTheSameOrder() throws {
        let (catalog, dir) = try Self.catalog(records: 13_000)
        defer { dir.remove() }
        let (fromTable, ticket, _) = try catalog.snapshotForServing()
        let saved = try #require(ticket, "the first read is from the table")
        try catalog.saveSnapshotFile(fromTable, ticket: saved)
        let (fromFile, again, _) = try catalog.snapshotForServing()
        #expect(again == nil, "an up-to-date file is read instead of the table")
        #expect(fromFile.assets.count == fromTable.assets.count)
        #expect(Array(fromFile.assets) == Array(fromTable.assets))
        // Every camera is one object, as in a table read.
        #expect(Set(fromFile.assets.map { ObjectIdentifier($0.metadata.texts) }).count <= 6)
        // Decoded in two halves (split at a chunk multiple): the same order.
        let split = try #require(SnapshotFile.read(catalog.snapshotFilePath, stamp: try Self.stamp(catalog), splitUnit: 4096)).assets
        #expect(Array(split) == Array(fromTable.assets))
        var info = stat()
        #expect(stat(catalog.snapshotFilePath, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func anyWriteToTheAssetsMakesTheFileStale() throws {
        let (catalog, dir) = try Self.catalog(records: 300)
        defer { dir.remove() }
        func save() throws {
            let (snapshot, ticket, _) = try catalog.snapshotForServing()
            try catalog.saveSnapshotFile(snapshot, ticket: try #require(ticket))
            #expect(try catalog.snapshotForServing().ticket == nil)
        }
        try save()
        var added = SplitSnapshotTests.records(count: 301)[300]
        added.asset.path = LibraryPath("new/one.jpg")
        try catalog.upsert([added])
        var (snapshot, ticket, _) = try catalog.snapshotForServing()
        #expect(ticket != nil, "a stale file is not read")
        #expect(snapshot.assets.count == 301 && snapshot.assets.contains { $0.id == added.asset.id })

        try save()
        try catalog.deleteAssets([added.asset.id])
        (snapshot, ticket, _) = try catalog.snapshotForServing()
        #expect(ticket != nil && snapshot.assets.count == 300)

        try save()
        try catalog.withIndexTransaction { writer throws(CatalogError) in try writer.delete(added.asset.id) }
        #expect(try catalog.snapshotForServing().ticket != nil, "an index run moves the generation")

        // Apps and grants never come from the file: a grant made after it was saved shows.
        try save()
        try catalog.replaceAccessState(
            apps: ["a": App(name: "a")], grants: ["a": [Grant(asset: snapshot.assets[0].id, grantedAtNanoseconds: 1)]])
        let withGrant = try catalog.snapshotForServing()
        #expect(withGrant.ticket == nil)
        #expect(withGrant.snapshot.grants["a"]?.map(\.asset) == [snapshot.assets[0].id])
    }

    @Test(arguments: ["truncated", "flipped", "garbage", "empty", "otherSchema"])
    func aDamagedOrForeignFileIsIgnored(damage: String) throws {
        let (catalog, dir) = try Self.catalog(records: 500)
        defer { dir.remove() }
        let (snapshot, ticket, _) = try catalog.snapshotForServing()
        let stamp = try #require(ticket).stamp
        let path = catalog.snapshotFilePath
        switch damage {
        case "otherSchema":
            try SnapshotFile.write(
                snapshot.assets, stamp: SnapshotFile.Stamp(generation: stamp.generation, schemaVersion: stamp.schemaVersion - 1), to: path)
        default:
            try catalog.saveSnapshotFile(snapshot, ticket: try #require(ticket))
            var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
            switch damage {
            case "truncated": bytes.removeLast(bytes.count / 3)
            case "flipped": bytes[bytes.count / 2] ^= 0x40
            case "garbage": bytes = Array(bytes.prefix(48)) + [UInt8](repeating: 0xFF, count: 4096)
            default: bytes = []
            }
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
        let (again, retold, _) = try catalog.snapshotForServing()
        #expect(retold != nil, "the table is read instead")
        #expect(Array(again.assets) == Array(snapshot.assets))
    }
}
