import CatalogTestSupport
import Foundation
import Glibc
import PhotoCore
import Testing
import ViewTestSupport

@testable import PhotoCatalog

/// The view tables file kept beside the snapshot file: a mount that reads both builds the
/// views from it, and they are the views a fresh build makes; a file that is stale, damaged,
/// of another snapshot file, not the user's or not private is never served (the views are
/// built from the assets, and the next save writes it again).
@Suite("view tables file")
struct ViewTablesFileTests {
    private static func catalog(records: Int) throws -> (Catalog, TemporaryDirectory) {
        try SnapshotFileTests.catalog(records: records)
    }

    /// Every directory's listing: name, inode and, for files, the asset served.
    private static func listing(_ tree: ViewTree) -> [String: [String]] {
        tree.listings { tree.asset(of: $0)?.id.rawValue ?? "-" }
    }

    private static func build(_ snapshot: LibrarySnapshot, tables: LibraryTables? = nil) -> ViewTree {
        ViewTree.build(snapshot: snapshot, filters: FilterLanguageResolver(), tables: tables)
    }

    /// Saves both files; returns the snapshot served from them.
    @discardableResult
    private static func save(_ catalog: Catalog) throws -> LibrarySnapshot {
        let (snapshot, ticket, _) = try catalog.snapshotForServing()
        try catalog.saveSnapshotFile(snapshot, ticket: try #require(ticket))
        let again = try catalog.snapshotForServing()
        #expect(again.ticket == nil && again.tables != nil, "both files are up to date")
        return again.snapshot
    }

    @Test func theKeptTablesBuildTheViewsAFreshBuildMakes() throws {
        let (catalog, dir) = try Self.catalog(records: 3_000)
        defer { dir.remove() }
        let (fromTable, ticket, tables) = try catalog.snapshotForServing()
        #expect(tables == nil && ticket?.readFromSnapshotFile == false, "the first read is from the table")
        try catalog.saveSnapshotFile(fromTable, ticket: try #require(ticket))
        let (fromFiles, again, kept) = try catalog.snapshotForServing()
        #expect(again == nil)
        let keptTables = try #require(kept)
        #expect(Self.listing(Self.build(fromFiles, tables: keptTables)) == Self.listing(Self.build(fromFiles)))
        #expect(Self.listing(Self.build(fromFiles)) == Self.listing(Self.build(fromTable)))
        var info = stat()
        #expect(stat(catalog.viewTablesFilePath, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aMissingTablesFileIsWrittenWithoutTheSnapshotFileAgain() throws {
        let (catalog, dir) = try Self.catalog(records: 500)
        defer { dir.remove() }
        try Self.save(catalog)
        var before = stat()
        #expect(stat(catalog.snapshotFilePath, &before) == 0)
        #expect(unlink(catalog.viewTablesFilePath) == 0)
        let (snapshot, ticket, tables) = try catalog.snapshotForServing()
        #expect(tables == nil && ticket?.readFromSnapshotFile == true)
        try catalog.saveSnapshotFile(snapshot, ticket: try #require(ticket))
        var after = stat()
        #expect(stat(catalog.snapshotFilePath, &after) == 0 && after.st_ino == before.st_ino, "the snapshot file stays")
        #expect(try catalog.snapshotForServing().tables != nil)
    }

    @Test(arguments: [
        "stale", "truncated", "flipped", "garbage", "hashedGarbage", "empty", "otherSnapshotFile", "otherOwner", "groupReadable",
    ])
    func aStaleDamagedOrForeignFileIsNeverServed(damage: String) throws {
        let (catalog, dir) = try Self.catalog(records: 700)
        defer { dir.remove() }
        let served = try Self.save(catalog)
        let path = catalog.viewTablesFilePath
        let stamp = try catalog.connection.withLock { (c: inout Catalog.Connection) throws(CatalogError) in
            try Catalog.snapshotStamp(in: c.db)
        }
        let snapshotHash = try #require(SnapshotFile.read(catalog.snapshotFilePath, stamp: stamp)).hash
        var bytes = [UInt8](try #require(FileManager.default.contents(atPath: path)))
        switch damage {
        case "stale":
            var added = SplitSnapshotTests.records(count: 701)[700]
            added.asset.path = LibraryPath("new/one.jpg")
            try catalog.upsert([added])
        case "truncated": bytes.removeLast(bytes.count / 3)
        case "flipped": bytes[bytes.count / 2] ^= 0x40
        case "garbage": bytes = Array(bytes.prefix(48)) + [UInt8](repeating: 0xFF, count: 4096)
        case "empty": bytes = []
        case "hashedGarbage", "otherSnapshotFile":
            // Hashed as a file is written: only the check of what is inside can refuse it.
            _ = try SnapshotFile.writeReplacing(path) { (out: inout StreamingOutput) in
                out.append(ViewTablesFile.magic)
                out.put(ViewTablesFile.formatVersion)
                out.put(UInt32(0))
                out.put(stamp.generation)
                out.put(stamp.schemaVersion)
                out.put(damage == "otherSnapshotFile" ? snapshotHash ^ 1 : snapshotHash)
                out.put(UInt64(served.assets.count))
                if damage == "otherSnapshotFile" {
                    LibraryTables(served.assets).write { out.append($0.bindMemory(to: UInt8.self)) }
                } else {
                    out.append([UInt8](repeating: 0x7F, count: 9_000))
                }
            }
        case "otherOwner": #expect(chown(path, 4242, 4242) == 0)
        default: #expect(chmod(path, 0o640) == 0)
        }
        if ["truncated", "flipped", "garbage", "empty"].contains(damage) { try Data(bytes).write(to: URL(fileURLWithPath: path)) }
        let (snapshot, ticket, tables) = try catalog.snapshotForServing()
        #expect(tables == nil, "never served")
        let retold = try #require(ticket, "saved again")
        #expect(retold.readFromSnapshotFile == (damage != "stale"))
        // Built from the assets instead, and kept again for the next mount.
        try catalog.saveSnapshotFile(snapshot, ticket: retold)
        let repaired = try catalog.snapshotForServing()
        #expect(repaired.ticket == nil)
        let kept = try #require(repaired.tables)
        #expect(Self.listing(Self.build(repaired.snapshot, tables: kept)) == Self.listing(Self.build(repaired.snapshot)))
    }
}
