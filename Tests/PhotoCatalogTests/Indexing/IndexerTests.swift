import CatalogTestSupport
import Glibc
import MediaFormats
import PhotoCore
import PhotoHashing
import PhotoMetadata
import Synchronization
import Testing

@testable import PhotoCatalog

/// A library in a temporary directory, its catalog beside it, and an indexer whose
/// analyzer counts its calls.
private final class Fixture {
    let dir: TemporaryDirectory
    let catalogPath: String
    let analyzer: CountingAnalyzer
    var catalog: Catalog

    init(analyzer: any AssetAnalyzing = FileAnalyzer()) throws {
        dir = try TemporaryDirectory()
        catalogPath = dir.string + "/catalog/c.sqlite"
        self.analyzer = CountingAnalyzer(analyzer)
        catalog = try Catalog.open(at: catalogPath, library: dir.child("lib"))
        try FileOps.makeDirectories(dir.child("lib"))
    }

    deinit { dir.remove() }

    func path(_ relative: String) -> [UInt8] { dir.child("lib/" + relative) }
    func path(_ relative: [UInt8]) -> [UInt8] { dir.child(Array("lib/".utf8) + relative) }

    func add(_ relative: String, comment: String? = nil) throws {
        try FileOps.write(TinyJPEG.bytes(comment: comment ?? relative), to: path(relative))
    }

    /// A tiny JPEG with EXIF Make, Model and DateTimeOriginal.
    func addWithExif(_ relative: String, day: Int) throws {
        try FileOps.write(
            TinyJPEG.withExif(
                comment: relative, make: "Canon", model: "Canon EOS 40D", dateTimeOriginal: "2024:06:\(day < 10 ? "0" : "")\(day) 12:30:00"),
            to: path(relative))
    }

    func index(scope: IndexScope = .everything, batchSize: Int = 3, progress: @escaping @Sendable (IndexProgress) -> Void = { _ in }) throws
        -> IndexSummary
    {
        analyzer.reset()
        return try Indexer(catalog: catalog, library: dir.child("lib"), analyzer: analyzer, batchSize: batchSize).run(
            scope: scope, progress: progress)
    }

    func id(_ relative: String) throws -> AssetID? { try catalog.asset(at: LibraryPath(relative))?.asset.id }

    func paths() throws -> [String] { try catalog.snapshot().assets.map(\.path.display).sorted() }
}

private func counts(_ s: IndexSummary) -> [String: Int] {
    [
        "new": s.new, "changed": s.changed, "moved": s.moved, "removed": s.removed, "failed": s.failed, "notAssets": s.notAssets,
        "unchanged": s.unchanged,
        "touched": s.touched,
    ]
}

private func expected(
    new: Int = 0, changed: Int = 0, moved: Int = 0, removed: Int = 0, failed: Int = 0, notAssets: Int = 0, unchanged: Int = 0,
    touched: Int = 0
) -> [String: Int] {
    [
        "new": new, "changed": changed, "moved": moved, "removed": removed, "failed": failed, "notAssets": notAssets,
        "unchanged": unchanged, "touched": touched,
    ]
}

@Suite("Indexer")
struct IndexerTests {
    /// The incremental scenario: rename one, move one, change one, delete one.
    @Test func renameMoveChangeDelete() throws {
        let f = try Fixture()
        for (day, name) in ["rename.jpg", "move.jpg", "change.jpg", "delete.jpg", "stay.jpg"].enumerated() {
            try f.addWithExif(name, day: day + 1)
        }
        let first = try f.index()
        #expect(counts(first) == expected(new: 5))
        #expect(f.analyzer.count == 5)
        let renamed = try #require(try f.id("rename.jpg"))
        let moved = try #require(try f.id("move.jpg"))
        let changed = try #require(try f.id("change.jpg"))
        let deleted = try #require(try f.id("delete.jpg"))
        // Ids come from content: the fingerprint's first 12 hex digits.
        let renameBytes = try #require(FileOps.read(f.path("rename.jpg")))
        #expect(renamed == AssetFingerprint(of: renameBytes).assetID)
        // What libexif read is what the catalog holds.
        let metadata = try #require(try f.catalog.asset(id: moved)?.asset.metadata)
        #expect(metadata.make == "Canon")
        #expect(metadata.model == "Canon EOS 40D")
        #expect(metadata.captureDate == CaptureDate(year: 2024, month: 6, day: 2, hour: 12, minute: 30, second: 0))
        #expect(metadata.dateSource == .dateTimeOriginal)
        #expect(metadata.hasExif)

        try FileOps.rename(f.path("rename.jpg"), f.path("renamed.jpg"))
        try FileOps.rename(f.path("move.jpg"), f.path("sub/folder/move.jpg"))
        try f.add("change.jpg", comment: "new content")
        try FileOps.unlink(f.path("delete.jpg"))
        let second = try f.index()

        #expect(counts(second) == expected(changed: 1, moved: 2, removed: 1, unchanged: 1))
        #expect(try f.id("renamed.jpg") == renamed)
        #expect(try f.id("sub/folder/move.jpg") == moved)
        let newID = try #require(try f.id("change.jpg"))
        #expect(newID != changed)
        #expect(newID == AssetFingerprint(of: TinyJPEG.bytes(comment: "new content")).assetID)
        #expect(try f.catalog.asset(id: deleted) == nil)
        #expect(try f.paths() == ["change.jpg", "renamed.jpg", "stay.jpg", "sub/folder/move.jpg"])
        #expect(try f.catalog.asset(id: moved)?.asset.metadata.captureDate?.day == 2)
        // A rename changes the ctime: the renamed and moved files were read again (their
        // first and last 64 KiB) and known by their fingerprint, with the changed file.
        #expect(f.analyzer.count == 3)
        #expect(second.movedIDs == [renamed, moved])
        #expect(second.invalidatedIDs == [changed, deleted])
        #expect(second.newIDs == [newID])
    }

    @Test func anUnchangedLibraryIsNotReadAgain() throws {
        let f = try Fixture()
        for n in 0..<20 { try f.add("d\(n % 3)/img\(n).jpg") }
        try FileOps.write(Array("not a photo".utf8), to: f.path("notes.txt"))
        #expect(counts(try f.index()) == expected(new: 20, notAssets: 1))
        let before = try f.catalog.snapshot().assets
        let again = try f.index()
        #expect(f.analyzer.count == 0)
        #expect(counts(again) == expected(unchanged: 21))
        #expect(!again.changedCatalog)
        #expect(Set(try f.catalog.snapshot().assets) == Set(before))
    }

    @Test func aMoveAcrossFileSystemsIsKnownByItsContent() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        _ = try f.index()
        let id = try #require(try f.id("a.jpg"))
        // A copy has a new inode, so only the fingerprint can tell it is the same photo.
        try FileOps.write(try #require(FileOps.read(f.path("a.jpg"))), to: f.path("elsewhere/a copy.jpg"))
        try FileOps.unlink(f.path("a.jpg"))
        let summary = try f.index()
        #expect(counts(summary) == expected(moved: 1))
        #expect(f.analyzer.count == 1)
        #expect(try f.id("elsewhere/a copy.jpg") == id)
    }

    @Test func swappingTwoNamesKeepsEachIDWithItsContent() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        try f.add("b.jpg")
        _ = try f.index()
        let a = try f.id("a.jpg")
        let b = try f.id("b.jpg")
        try FileOps.rename(f.path("a.jpg"), f.path("tmp.jpg"))
        try FileOps.rename(f.path("b.jpg"), f.path("a.jpg"))
        try FileOps.rename(f.path("tmp.jpg"), f.path("b.jpg"))
        #expect(counts(try f.index()) == expected(moved: 2))
        #expect(try f.id("a.jpg") == b)
        #expect(try f.id("b.jpg") == a)
    }

    @Test func duplicatesGetDistinctStableIDs() throws {
        let f = try Fixture()
        for name in ["1.jpg", "2.jpg", "3.jpg"] { try f.add(name, comment: "same") }
        #expect(counts(try f.index()) == expected(new: 3))
        let ids = try ["1.jpg", "2.jpg", "3.jpg"].map { try #require(try f.id($0)) }
        #expect(Set(ids).count == 3)
        #expect(ids[0] == AssetFingerprint(of: TinyJPEG.bytes(comment: "same")).assetID)
        let fingerprint = AssetFingerprint(of: TinyJPEG.bytes(comment: "same")).hex
        #expect(ids[1].rawValue == String(SHA256.hex(SHA256.hash(Array("\(fingerprint)/1".utf8))).prefix(12)))
        #expect(try f.catalog.assets(withFingerprint: fingerprint).count == 3)
        // Deleting the first copy does not renumber the others.
        try FileOps.unlink(f.path("1.jpg"))
        #expect(counts(try f.index()) == expected(removed: 1, unchanged: 2))
        #expect(try f.id("2.jpg") == ids[1])
        #expect(try f.id("3.jpg") == ids[2])
    }

    @Test func aFileThatComesBackGetsItsOldID() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        _ = try f.index()
        let id = try f.id("a.jpg")
        let bytes = try #require(FileOps.read(f.path("a.jpg")))
        try FileOps.unlink(f.path("a.jpg"))
        #expect(counts(try f.index()) == expected(removed: 1))
        try FileOps.write(bytes, to: f.path("back/a.jpg"))
        #expect(counts(try f.index()) == expected(new: 1))
        #expect(try f.id("back/a.jpg") == id)
    }

    @Test func touchedFilesKeepTheirID() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        _ = try f.index()
        let id = try #require(try f.id("a.jpg"))
        FileOps.setMtime(f.path("a.jpg"), seconds: 1_000_000_000, nanoseconds: 5)
        let summary = try f.index()
        #expect(counts(summary) == expected(touched: 1))
        #expect(summary.invalidatedIDs == [id])
        let record = try #require(try f.catalog.asset(id: id))
        #expect(record.asset.mtimeNanoseconds == 1_000_000_000_000_000_005)
    }

    @Test func failuresAreRecordedRetriedWhenChangedAndForgottenWhenGone() throws {
        let f = try Fixture()
        try FileOps.write(Array("hello".utf8), to: f.path("notes.txt"))
        try FileOps.write([], to: f.path("empty.jpg"))
        try f.add("ok.jpg")
        #expect(counts(try f.index()) == expected(new: 1, notAssets: 2))
        #expect(try f.catalog.failures().map(\.path.display) == ["empty.jpg", "notes.txt"])
        #expect(try f.catalog.failure(at: LibraryPath("notes.txt"))?.reason == .notMedia)
        // A failed file that becomes a photo is catalogued; one that goes is forgotten.
        try f.add("empty.jpg")
        try FileOps.unlink(f.path("notes.txt"))
        #expect(counts(try f.index()) == expected(new: 1, unchanged: 1))
        #expect(try f.catalog.failures().isEmpty)
        // A photo that turns into something else leaves the catalog and becomes a failure.
        let okID = try f.id("ok.jpg")
        try FileOps.write(Array("now text".utf8), to: f.path("ok.jpg"))
        let summary = try f.index()
        #expect(counts(summary) == expected(removed: 1, notAssets: 1, unchanged: 1))
        #expect(summary.invalidatedIDs == [try #require(okID)])
        #expect(try f.catalog.failures().map(\.path.display) == ["ok.jpg"])
    }

    /// The unchanged check compares paths in order, not counts: swaps that keep every
    /// count the same (an asset gone and another come, a failure gone and another come, a
    /// link replaced by a file of its name) are each seen, and a truly unchanged run reads
    /// nothing and counts every file, failure and link.
    @Test func equalCountsDoNotHideChanges() throws {
        let f = try Fixture()
        for name in ["a.jpg", "b.jpg", "m/c.jpg", "m-n/d.jpg"] { try f.add(name) }
        try FileOps.write(Array("hello".utf8), to: f.path("notes.txt"))
        try FileOps.symlink(target: Array("a.jpg".utf8), at: f.path("link.jpg"))
        _ = try f.index()
        // A link is recorded with its whole stat (ctime included), so it is not recorded again.
        #expect(counts(try f.index()) == expected(unchanged: 6))
        #expect(f.analyzer.calls.withLock { $0 }.isEmpty)

        try FileOps.unlink(f.path("b.jpg"))
        try f.add("bb.jpg")
        try FileOps.unlink(f.path("notes.txt"))
        try FileOps.write(Array("other".utf8), to: f.path("notes2.txt"))
        #expect(counts(try f.index()) == expected(new: 1, removed: 1, notAssets: 1, unchanged: 4))
        #expect(try f.paths() == ["a.jpg", "bb.jpg", "m-n/d.jpg", "m/c.jpg"])
        #expect(try f.catalog.failures().map(\.path.display) == ["link.jpg", "notes2.txt"])

        try FileOps.unlink(f.path("link.jpg"))
        try f.add("link.jpg")
        #expect(counts(try f.index()) == expected(new: 1, unchanged: 5))
        #expect(try f.paths() == ["a.jpg", "bb.jpg", "link.jpg", "m-n/d.jpg", "m/c.jpg"])
        #expect(try f.catalog.failures().map(\.path.display) == ["notes2.txt"])
        #expect(counts(try f.index()) == expected(unchanged: 6))
    }

    @Test func namesThatAreNotTextAreIndexedAndFound() throws {
        let f = try Fixture()
        let name: [UInt8] = [0x66, 0xFF, 0x0A, 0x67] + Array(".jpg".utf8)
        try FileOps.write(TinyJPEG.bytes(comment: "odd"), to: f.path(name))
        #expect(counts(try f.index()) == expected(new: 1))
        let record = try #require(try f.catalog.asset(at: LibraryPath(bytes: name)))
        #expect(record.asset.path.bytes == name)
        #expect(record.asset.metadata.format == .jpeg)
        #expect(record.asset.metadata.width == 16)
        #expect(f.analyzer.calls.withLock { $0 } == [f.path(name)])
    }

    @Test func grantsFollowMovesAndSurviveDeletion() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        try f.add("b.jpg")
        _ = try f.index()
        let a = try #require(try f.id("a.jpg"))
        let b = try #require(try f.id("b.jpg"))
        let grants = ["editor": [Grant(asset: a, grantedAtNanoseconds: 1), Grant(asset: b, grantedAtNanoseconds: 2)]]
        try f.catalog.replaceAccessState(apps: ["editor": App(name: "editor")], grants: grants)
        try FileOps.rename(f.path("a.jpg"), f.path("x/a.jpg"))
        try FileOps.unlink(f.path("b.jpg"))
        _ = try f.index()
        let reopened = try Catalog.open(at: f.catalogPath)
        #expect(try reopened.allGrants() == grants)
        #expect(try reopened.asset(id: a)?.asset.path.display == "x/a.jpg")
        #expect(try reopened.asset(id: b) == nil)
    }

    @Test func aScopedRunTouchesOnlyItsFolders() throws {
        let f = try Fixture()
        try f.add("a/1.jpg")
        try f.add("b/2.jpg")
        try f.add("top.jpg")
        _ = try f.index()
        let moved = try f.id("a/1.jpg")
        try FileOps.rename(f.path("a/1.jpg"), f.path("b/1.jpg"))
        try FileOps.unlink(f.path("top.jpg"))  // outside the scope: not seen yet
        let scope = IndexScope.folders([
            FolderScope(path: LibraryPath("a"), recursive: false), FolderScope(path: LibraryPath("b"), recursive: true),
        ])
        #expect(counts(try f.index(scope: scope)) == expected(moved: 1, unchanged: 1))
        #expect(try f.id("b/1.jpg") == moved)
        #expect(try f.paths() == ["b/1.jpg", "b/2.jpg", "top.jpg"])
        #expect(counts(try f.index()) == expected(removed: 1, unchanged: 2))
    }

    @Test func reportsProgressWithKnownTotals() throws {
        let f = try Fixture()
        for n in 0..<7 { try f.add("p\(n).jpg") }
        let reports = Mutex<[IndexProgress]>([])
        _ = try f.index(batchSize: 2) { p in reports.withLock { $0.append(p) } }
        let analysing = reports.withLock { $0 }.compactMap(\.counts)
        #expect(analysing.first?.filesDone == 0)
        #expect(analysing.allSatisfy { $0.filesTotal == 7 && $0.bytesTotal > 0 })
        #expect(analysing.map(\.filesDone).max() == 7)
        #expect(analysing.map(\.bytesDone).max() == analysing.first?.bytesTotal)
    }

    @Test func aMissingLibraryIsAnErrorNotAnEmptyCatalog() throws {
        let f = try Fixture()
        try f.add("a.jpg")
        _ = try f.index()
        _ = FileOps.run(["/bin/rm", "-rf", f.dir.string + "/lib"])
        #expect(throws: IndexError.self) { _ = try f.index() }
        #expect(try f.catalog.assetCount() == 1)
    }
}

@Suite("Indexer at scale")
struct IndexerScaleTests {
    /// The README promises a re-index of an unchanged 10,000-file library in under 2 s.
    @Test func reindexingTenThousandUnchangedFilesIsQuick() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        for n in 0..<10_000 {
            try FileOps.write(TinyJPEG.bytes(comment: "photo \(n)"), to: dir.child("lib/\(n % 50)/IMG_\(n).jpg"))
        }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let analyzer = CountingAnalyzer(FileAnalyzer())
        let indexer = Indexer(catalog: catalog, library: dir.child("lib"), analyzer: analyzer)
        let first = try indexer.run()
        #expect(first.new == 10_000)
        let again = try indexer.run()
        print(
            "10,000 files: first index \(Int(first.seconds * 1000)) ms (\(Int(10_000 / first.seconds)) files/s), unchanged re-index \(Int(again.seconds * 1000)) ms"
        )
        #expect(again.unchanged == 10_000)
        #expect(analyzer.count == 10_000)
    }
}

/// Upgrading a catalog made by the code before sampled fingerprints (schema 2, built here
/// from that schema's own SQL with the rows that code wrote: ids from the whole file's
/// SHA-256): every asset is read again once, keeps its id and gets a fresh plan; the apps
/// and grants are untouched; a file moved across the upgrade is known by its whole-file
/// hash; a file changed across the upgrade gets a new id.
@Suite("Indexer: a schema 2 catalog upgraded")
struct IndexerUpgradeTests {
    @Test func aSchemaTwoCatalogKeepsIdsAndGrants() throws {
        let fixture = try Fixture()
        try fixture.addWithExif("a.jpg", day: 1)
        try fixture.addWithExif("b.jpg", day: 2)
        try fixture.addWithExif("moved.jpg", day: 3)
        try fixture.addWithExif("changed.jpg", day: 4)
        let names = ["a.jpg", "b.jpg", "changed.jpg", "moved.jpg"]
        let path = fixture.dir.string + "/old.sqlite"
        let oldIDs = try Self.makeSchemaTwoCatalog(at: path, library: fixture.dir.child("lib"), names: names)

        fixture.catalog = try Catalog.open(at: path)
        #expect(try fixture.catalog.schemaVersion == Schema.currentVersion)
        #expect(try fixture.catalog.grants(for: "viewer").map(\.asset) == names.map { oldIDs[$0]! })
        try FileOps.makeDirectories(fixture.path("sub"))
        try FileOps.rename(fixture.path("moved.jpg"), fixture.path("sub/moved.jpg"))
        try fixture.addWithExif("changed.jpg", day: 9)

        let summary = try fixture.index()
        #expect(summary.touched == 2 && summary.moved == 1 && summary.changed == 1 && summary.new == 0, "\(counts(summary))")
        #expect(try fixture.id("a.jpg") == oldIDs["a.jpg"])
        #expect(try fixture.id("b.jpg") == oldIDs["b.jpg"])
        #expect(try fixture.id("sub/moved.jpg") == oldIDs["moved.jpg"])
        #expect(try fixture.id("changed.jpg") != oldIDs["changed.jpg"])
        // Fresh metadata and plans (the stored ones were empty), sampled fingerprints now.
        let a = try #require(try fixture.catalog.asset(at: LibraryPath("a.jpg")))
        #expect(a.asset.metadata.make == "Canon" && a.asset.metadata.hasExif)
        #expect(a.fingerprint == AssetFingerprint(of: try #require(FileOps.read(fixture.path("a.jpg")))).hex)
        #expect(a.asset.ctimeNanoseconds != 0)
        // Every grant is still there, in order, naming the same ids.
        #expect(try fixture.catalog.grants(for: "viewer").map(\.asset) == names.map { oldIDs[$0]! })
        #expect(try fixture.catalog.apps()["viewer"]?.filter == "make:Canon")
        // Once only.
        #expect(try fixture.index().unchanged == 4)
        #expect(fixture.analyzer.count == 0)
    }

    /// Writes `names` (files in `library`) into a new schema-2 catalog the way that code
    /// did, with an app "viewer" granted every one of them; returns the ids by name.
    static func makeSchemaTwoCatalog(at path: String, library: [UInt8], names: [String]) throws -> [String: AssetID] {
        let db = try Database(path: path)
        try db.execute(Schema.migrations[0])
        try db.execute(Schema.migrations[1])
        try db.execute("PRAGMA user_version = 2")
        try db.execute("INSERT INTO apps(name, filter, location, selection_limit, uid) VALUES('viewer', 'make:Canon', 'strip', 0, NULL)")
        var ids: [String: AssetID] = [:]
        for (position, name) in names.enumerated() {
            let file = library + Array("/\(name)".utf8)
            let bytes = try #require(FileOps.read(file))
            let full = SHA256.hex(SHA256.hash(bytes))
            let id = try #require(AssetID(full.prefix(12)))
            ids[name] = id
            var info = stat()
            #expect(FileOps.cString(file) { lstat($0, &info) } == 0)
            let insert = try db.statement(
                """
                INSERT INTO assets(id, fingerprint, path, size, mtime_ns, inode, format, date_source, has_exif, says_screenshot,
                problems, redaction_strip, redaction_coarse, indexed_at_ns)
                VALUES(?1, ?2, ?3, ?4, ?5, ?6, 'jpeg', 'fileModification', 0, 0, '', ?7, ?7, 1)
                """)
            try insert.bind(1, id.rawValue)
            try insert.bind(2, full)
            try insert.bind(3, Array(name.utf8))
            try insert.bind(4, Int64(bytes.count))
            try insert.bind(5, Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
            try insert.bind(6, Int64(info.st_ino))
            try insert.bind(7, RedactionPlan.identity.encoded())
            try insert.run()
            let grant = try db.statement("INSERT INTO grants(app, asset_id, position, granted_at_ns) VALUES('viewer', ?1, ?2, 5)")
            try grant.bind(1, id.rawValue)
            try grant.bind(2, Int64(position))
            try grant.run()
        }
        return ids
    }
}

/// Several index runs at once (each with its own connection, as separate `photofs index`
/// processes have) over a library with identical copies: every run must leave the ids a
/// single run gives, whatever order their transactions land in.
@Suite("Indexer: concurrent runs agree on ids")
struct IndexerConcurrencyTests {
    @Test func concurrentRunsGiveTheIdsOfASingleRun() throws {
        let fixture = try Fixture()
        for n in 0..<20 {
            for copy in 0..<3 {
                try FileOps.write(TinyJPEG.bytes(comment: "content \(n)"), to: fixture.path("c\(copy)/\(n % 4)/IMG_\(n).jpg"))
            }
        }
        _ = try fixture.index(batchSize: 5)
        let reference = try Dictionary(uniqueKeysWithValues: fixture.catalog.snapshot().assets.map { ($0.path.display, $0.id) })
        #expect(reference.count == 60 && Set(reference.values).count == 60)

        var differing: [String] = []
        for trial in 0..<5 {
            let path = fixture.dir.string + "/concurrent-\(trial).sqlite"
            _ = try Catalog.open(at: path)
            let library = fixture.dir.child("lib")
            let failures = Mutex<[String]>([])
            let threads = (0..<3).map { run in
                Thread {
                    do {
                        let catalog = try Catalog.open(at: path)
                        _ = try Indexer(catalog: catalog, library: library, analyzer: FileAnalyzer(), batchSize: 3 + run).run()
                    } catch {
                        failures.withLock { $0.append("run \(run): \(error)") }
                    }
                }
            }
            threads.forEach { $0.start() }
            threads.forEach { $0.join() }
            #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
            let ids = try Dictionary(uniqueKeysWithValues: Catalog.open(at: path).snapshot().assets.map { ($0.path.display, $0.id) })
            if ids != reference { differing.append("trial \(trial): \(ids.filter { reference[$0.key] != $0.value }.count) paths differ") }
        }
        #expect(differing.isEmpty, "\(differing)")
    }
}

/// A joinable thread (the toolchain's Foundation-free test target has no `Thread`).
private final class Thread: @unchecked Sendable {
    private var handle = pthread_t()
    private let body: () -> Void

    init(_ body: @escaping () -> Void) { self.body = body }

    func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(
            &handle, nil,
            { raw in
                let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
                thread.body()
                return nil
            }, box)
    }

    func join() { pthread_join(handle, nil) }
}

/// `photofs index --verify`: every catalogued file hashed whole with libcrypto, the hash
/// stored, and a file whose bytes no longer match the stored hash reported and indexed again.
@Suite("Indexer: verify")
struct IndexerVerifyTests {
    @Test func verifyStoresHashesAndReindexesSilentChanges() throws {
        let fixture = try Fixture()
        try fixture.addWithExif("a.jpg", day: 1)
        try fixture.addWithExif("b.jpg", day: 2)
        _ = try fixture.index()
        let indexer = Indexer(catalog: fixture.catalog, library: fixture.dir.child("lib"), analyzer: fixture.analyzer)
        let (first, none) = try indexer.verify()
        #expect(first.files == 2 && first.firstHashed == 2 && first.changedSilently.isEmpty && none == nil)
        let db = try Database(path: fixture.catalogPath)
        let bytes = try #require(FileOps.read(fixture.path("a.jpg")))
        #expect(try db.scalarText("SELECT content_sha256 FROM assets WHERE path = x'612e6a7067'") == SHA256.hex(SHA256.hash(bytes)))
        let (second, _) = try indexer.verify()
        #expect(second.files == 2 && second.firstHashed == 0 && second.changedSilently.isEmpty)

        // The stored hash no longer matches a.jpg's bytes, while its stat does.
        try db.execute("UPDATE assets SET content_sha256 = '\(String(repeating: "0", count: 64))' WHERE path = x'612e6a7067'")
        fixture.analyzer.reset()
        let (third, reindex) = try indexer.verify()
        #expect(third.changedSilently == [LibraryPath("a.jpg")])
        #expect(reindex?.touched == 1 && reindex?.unchanged == 1, "\(reindex.map(counts) ?? [:])")
        #expect(fixture.analyzer.count == 1)
        let (fourth, _) = try indexer.verify()
        #expect(fourth.changedSilently.isEmpty && fourth.firstHashed == 1)
    }
}
