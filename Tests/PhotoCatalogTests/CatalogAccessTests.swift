import CatalogTestSupport
import Foundation
import Glibc
import PhotoCore
import Testing

@testable import PhotoCatalog

private func grant(_ id: String, at time: Int64 = 0) -> Grant {
    Grant(asset: AssetID(id)!, grantedAtNanoseconds: time)
}

private func ids(_ n: Int) -> [String] {
    (0..<n).map { i in
        let hex = String(i, radix: 16)
        return String(repeating: "0", count: 12 - hex.count) + hex
    }
}

@Suite("Catalog access state")
struct CatalogAccessTests {
    let editor = App(name: "editor", filter: "type:image -has:location", locationPolicy: .strip, selectionLimit: 50)
    let uploader = App(name: "uploader", filter: "", locationPolicy: .coarse, selectionLimit: 0, uid: 1001)

    @Test func appsAndOrderedGrantsSurviveAReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let grants = [
            "editor": [grant("00000000000c", at: 3), grant("00000000000a", at: 1), grant("00000000000b", at: 2)],
            "uploader": [grant("00000000000a", at: 9)],
        ]
        try Catalog.open(at: path).replaceAccessState(apps: ["editor": editor, "uploader": uploader], grants: grants)
        let catalog = try Catalog.open(at: path)
        #expect(try catalog.apps() == ["editor": editor, "uploader": uploader])
        #expect(try catalog.allGrants() == grants)
        #expect(try catalog.grants(for: "editor") == grants["editor"])
        #expect(try catalog.grants(for: "nobody") == [])
        #expect(try catalog.snapshot().grants == grants)
    }

    /// Every kind of edit of an ordered selection, each checked after a reopen.
    @Test(arguments: [
        ["a", "b", "c", "d"],  // unchanged
        ["a", "b", "c", "d", "e"],  // append
        ["e", "a", "b", "c", "d"],  // prepend
        ["a", "c", "d"],  // deselect in the middle
        ["d", "c", "b", "a"],  // reverse
        ["b", "a", "d", "c"],  // pairwise swap
        ["c"],  // keep one
        [],  // clear
    ])
    func selectionEditsKeepTheirOrder(letters: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        func id(_ letter: String) -> String { "00000000000" + letter }
        let before = ["a", "b", "c", "d"].map { grant(id($0), at: 5) }
        let after = letters.map { grant(id($0), at: $0 == "e" ? 7 : 5) }
        let catalog = try Catalog.open(at: path)
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": before])
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": after])
        #expect(try catalog.grants(for: "editor") == after)
        #expect(try Catalog.open(at: path).grants(for: "editor") == after)
    }

    @Test func removingAnAppRemovesItsGrantsOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path)
        try catalog.replaceAccessState(
            apps: ["editor": editor, "uploader": uploader],
            grants: ["editor": [grant("00000000000a")], "uploader": [grant("00000000000b")]])
        try catalog.replaceAccessState(apps: ["uploader": uploader], grants: ["uploader": [grant("00000000000b")]])
        let reopened = try Catalog.open(at: path)
        #expect(try reopened.apps() == ["uploader": uploader])
        #expect(try reopened.allGrants() == ["uploader": [grant("00000000000b")]])
        // Re-adding the app does not bring old grants back.
        try reopened.replaceAccessState(apps: ["uploader": uploader, "editor": editor], grants: ["uploader": [grant("00000000000b")]])
        #expect(try Catalog.open(at: path).grants(for: "editor") == [])
    }

    @Test func anInvalidStateWritesNothing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path)
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000a")]])
        #expect(throws: CatalogError.grantsForUnknownApp("ghost")) {
            try catalog.replaceAccessState(apps: ["editor": editor, "uploader": uploader], grants: ["ghost": [grant("00000000000a")]])
        }
        #expect(throws: CatalogError.duplicateGrant(app: "editor", asset: "00000000000b")) {
            try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000b"), grant("00000000000b")]])
        }
        // A duplicate of an asset in the unchanged prefix, and one inside the new part.
        #expect(throws: CatalogError.duplicateGrant(app: "editor", asset: "00000000000a")) {
            try catalog.replaceAccessState(
                apps: ["editor": editor], grants: ["editor": [grant("00000000000a"), grant("00000000000c"), grant("00000000000a")]])
        }
        #expect(throws: CatalogError.duplicateGrant(app: "editor", asset: "00000000000c")) {
            try catalog.replaceAccessState(
                apps: ["editor": editor], grants: ["editor": [grant("00000000000c"), grant("00000000000a"), grant("00000000000c")]])
        }
        #expect(try catalog.grants(for: "editor") == [grant("00000000000a")])
        let reopened = try Catalog.open(at: path)
        #expect(try reopened.apps() == ["editor": editor])
        #expect(try reopened.grants(for: "editor") == [grant("00000000000a")])
    }

    @Test func grantsOutliveTheirAssets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path)
        try catalog.upsert([bareRecord(id: "00000000000a", path: "a.jpg")])
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000a")]])
        try catalog.deleteAssets([AssetID("00000000000a")!])
        #expect(try Catalog.open(at: path).grants(for: "editor") == [grant("00000000000a")])
    }

    /// `kill -9` leaves the database and its WAL as they are in the page cache, with the
    /// connection never closed and no checkpoint. Copying both files while the writer is
    /// still open reproduces exactly that state; the copy must hold every grant that was
    /// reported written.
    @Test(arguments: [Durability.powerLoss, .processCrash])
    func aCommittedGrantIsInTheFilesAKilledProcessLeaves(durability: Durability) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path, accessDurability: durability)
        var grants: [Grant] = []
        for id in ids(200) {
            grants.append(grant(id, at: 1))
            try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": grants])
        }
        try FileOps.makeDirectories(dir.child("crash"))
        for suffix in ["", "-wal"] {
            #expect(FileOps.run(["/bin/cp", path + suffix, dir.string + "/crash/c.sqlite" + suffix]) == 0)
        }
        let recovered = try Catalog.open(at: dir.string + "/crash/c.sqlite")
        #expect(try recovered.grants(for: "editor") == grants)
        #expect(try recovered.apps() == ["editor": editor])
        withExtendedLifetime(catalog) {}
    }

    @Test func seesWhatAnotherConnectionWrote() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let daemon = try Catalog.open(at: path)
        let cli = try Catalog.open(at: path)
        try daemon.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000a")]])
        // The other connection writes from its own (now stale) picture; it must diff against the file.
        try cli.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000a"), grant("00000000000b")]])
        #expect(try daemon.grants(for: "editor") == [grant("00000000000a"), grant("00000000000b")])
        try daemon.replaceAccessState(apps: ["editor": editor], grants: ["editor": [grant("00000000000b")]])
        #expect(try cli.grants(for: "editor") == [grant("00000000000b")])
        #expect(try Catalog.open(at: path).grants(for: "editor") == [grant("00000000000b")])
    }

    @Test func tenThousandGrantsInOneWriteAreQuick() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let quick = try Catalog.open(at: dir.string + "/quick.sqlite", accessDurability: .processCrash)
        let many = ids(10_000).map { grant($0, at: 42) }
        let start = Indexer.monotonicSeconds()
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": many])
        let first = Indexer.monotonicSeconds() - start
        let again = Indexer.monotonicSeconds()
        try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": Array(many.dropFirst())])
        let deselect = Indexer.monotonicSeconds() - again
        // The picker's commonest write: one more select, each on disk before it returns.
        var grown = Array(many.dropFirst())
        let appends = Indexer.monotonicSeconds()
        for id in ids(10_200).suffix(200) {
            grown.append(grant(id, at: 43))
            try catalog.replaceAccessState(apps: ["editor": editor], grants: ["editor": grown])
        }
        let perAppend = (Indexer.monotonicSeconds() - appends) / 200
        try quick.replaceAccessState(apps: ["editor": editor], grants: ["editor": Array(many.dropFirst())])
        var quickGrown = Array(many.dropFirst())
        let quickAppends = Indexer.monotonicSeconds()
        for id in ids(10_200).suffix(200) {
            quickGrown.append(grant(id, at: 43))
            try quick.replaceAccessState(apps: ["editor": editor], grants: ["editor": quickGrown])
        }
        let perQuickAppend = (Indexer.monotonicSeconds() - quickAppends) / 200
        print(
            "10,000 grants: \(Int(first * 1000)) ms to write, \(Int(deselect * 1000)) ms to deselect the first, \(String(format: "%.2f", perAppend * 1000)) ms per single select after that (fsynced), \(String(format: "%.2f", perQuickAppend * 1000)) ms without fsync"
        )
        #expect(first < 1)
        #expect(try Catalog.open(at: dir.string + "/c.sqlite").grants(for: "editor") == grown)
    }
}
