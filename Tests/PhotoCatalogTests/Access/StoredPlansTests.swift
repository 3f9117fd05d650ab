import CatalogTestSupport
import Glibc
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// The read path's plans, fetched from the catalog row when a file is read: the plans the
/// catalog stores, for that version of the file only, and an error (never a plan) when the
/// row cannot be read.
@Suite("stored plans: the read path's plans from the catalog")
struct StoredPlansTests {
    @Test func aReadGetsThePlansTheCatalogStores() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada Lovelace"])
        let record = try #require(try library.catalog.asset(at: LibraryPath("a.jpg")))
        let plans = StoredPlans(path: library.catalogPath)
        for location in LocationPolicy.allCases {
            let served = try plans.plan(of: record.asset, location: location, metadata: .private)
            #expect(served == .privatePlans(record.redaction.privatePlans), "\(location)")
        }
        #expect(try plans.plan(of: record.asset, location: .strip, metadata: .keep) == .location(record.redaction.strip))
        #expect(try plans.plan(of: record.asset, location: .coarse, metadata: .keep) == .location(record.redaction.coarse))
        // The comment is private metadata: the private plans blank it, so they are not the identity.
        #expect(record.redaction.privatePlans.plan(for: .strip) != .identity)
        // The snapshot keeps of the plans only what they withhold.
        let snapshot = try library.catalog.snapshot()
        let kept = try #require(snapshot.assets.first { $0.id == record.asset.id })
        #expect(kept.withheld == WithheldPlans(record.redaction))
        #expect(kept == record.asset)
    }

    @Test func anotherVersionOfTheFileIsStale() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada Lovelace"])
        let asset = try #require(try library.catalog.asset(at: LibraryPath("a.jpg"))?.asset)
        let plans = StoredPlans(path: library.catalogPath)
        var changes: [(String, (inout Asset) -> Void)] = [
            ("size", { $0.size += 1 }), ("mtime", { $0.mtimeNanoseconds += 1 }), ("inode", { $0.inode += 1 }),
            ("ctime", { $0.ctimeNanoseconds += 1 }),
        ]
        changes.append(("id", { $0.id = AssetID("ffffffffffff")! }))
        for (field, change) in changes {
            var other = asset
            change(&other)
            #expect(throws: ViewLayerError.stale, "another \(field)") {
                try plans.plan(of: other, location: .strip, metadata: .keep)
            }
        }
    }

    /// The plan connection stays open across index runs and sees what they commit: after the
    /// file changes, the old version is refused and the new one served.
    @Test func aReindexedFileServesOnlyItsNewPlans() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada Lovelace"])
        let plans = StoredPlans(path: library.catalogPath)
        let before = try #require(try library.catalog.asset(at: LibraryPath("a.jpg")))
        _ = try plans.plan(of: before.asset, location: .strip, metadata: .private)
        try library.writePhoto("a.jpg", comment: "Charles Babbage, a longer comment")
        _ = try library.indexer.run()
        let after = try #require(try library.catalog.asset(at: LibraryPath("a.jpg")))
        try #require(!after.asset.isSameFile(as: before.asset))
        #expect(throws: ViewLayerError.stale) { try plans.plan(of: before.asset, location: .strip, metadata: .private) }
        #expect(try plans.plan(of: after.asset, location: .strip, metadata: .private) == .privatePlans(after.redaction.privatePlans))
    }

    /// Fail closed: a stored plan that does not decode is an error for the read, not a plan.
    @Test func anUndecodablePlanIsAnError() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada Lovelace"])
        let asset = try #require(try library.catalog.asset(at: LibraryPath("a.jpg"))?.asset)
        let db = try Database(path: library.catalogPath)
        let update = try db.statement("UPDATE asset_plans SET plan = ?1 WHERE kind = ?2 AND id = ?3")
        // A patches plan whose count promises a patch that is not there; private plans of an unknown version.
        for (kind, plan) in [(PlanRows.Kind.strip, [UInt8]([0, 1])), (.privatePlans, [9, 0, 0])] {
            update.reset()
            try update.bind(1, plan)
            try update.bind(2, kind.rawValue)
            try update.bind(3, asset.id.rawValue)
            try update.run()
        }
        let plans = StoredPlans(path: library.catalogPath)
        for metadata in MetadataPolicy.allCases {
            do {
                let served = try plans.plan(of: asset, location: .strip, metadata: metadata)
                Issue.record("an undecodable \(metadata) plan was served: \(served)")
            } catch {
                guard case .planUnavailable = error else {
                    Issue.record("\(metadata): \(error), not planUnavailable")
                    continue
                }
            }
        }
    }
}

/// Read-ahead: one fetch gives the plans of the files after the one read, in library path
/// order, each with the version of its file, from the plan table.
@Suite("stored plans: read-ahead from the plan table")
struct StoredPlansReadAheadTests {
    static let photos = [
        "a/1.jpg": "Ada", "a/2.jpg": "Grace Hopper", "a/3.jpg": "Alan Turing", "a/4.jpg": "Emmy Noether", "b/1.jpg": "Kurt Gödel",
    ]

    @Test func aFetchReadsAheadInPathOrderWithEachFilesVersion() throws {
        let library = try TestLibrary(folders: ["a", "b"], photos: Self.photos)
        let records = try ["a/1.jpg", "a/2.jpg", "a/3.jpg", "a/4.jpg", "b/1.jpg"].map { path in
            try #require(try library.catalog.asset(at: LibraryPath(path)))
        }
        let plans = StoredPlans(path: library.catalogPath)
        for (location, metadata) in [(LocationPolicy.strip, MetadataPolicy.keep), (.coarse, .keep), (.strip, .private)] {
            func served(_ record: AssetRecord) -> ServedPlan {
                metadata == .private ? .privatePlans(record.redaction.privatePlans) : .location(record.redaction.plan(for: location))
            }
            let batch = try plans.plans(from: records[0].asset, ahead: 2, location: location, metadata: metadata)
            #expect(batch.plan == served(records[0]))
            #expect(
                batch.ahead.plans
                    == records[1...2].map {
                        VersionedPlan(version: FileVersion(of: $0.asset), plan: served($0))
                    })
            #expect(batch.ahead.next == PlanCursor(id: records[3].asset.id, path: records[3].asset.path))
            // Past the end: what there is, and no next.
            let last = try plans.plans(from: records[3].asset, ahead: 5, location: location, metadata: metadata)
            #expect(last.ahead.plans.map(\.version.id) == [records[4].asset.id])
            #expect(last.ahead.next == nil)
            #expect(try plans.plans(from: records[4].asset, ahead: 0, location: location, metadata: metadata).ahead.plans.isEmpty)
            // A read-ahead from a cursor: that asset first.
            let ahead = try plans.plans(at: try #require(batch.ahead.next), count: 1, location: location, metadata: metadata)
            #expect(ahead.plans.map(\.version.id) == [records[3].asset.id])
            #expect(ahead.plans.first?.plan == served(records[3]))
            #expect(ahead.next == PlanCursor(id: records[4].asset.id, path: records[4].asset.path))
        }
    }

    /// The asset asked for is checked as before: another version, or another file now at
    /// its path, is stale.
    @Test func theAssetAskedForMustBeThatVersionAtItsPath() throws {
        let library = try TestLibrary(folders: ["a", "b"], photos: Self.photos)
        let asset = try #require(try library.catalog.asset(at: LibraryPath("a/2.jpg"))?.asset)
        let plans = StoredPlans(path: library.catalogPath)
        var moved = asset
        moved.path = LibraryPath("a/1.jpg")
        var elsewhere = asset
        elsewhere.path = LibraryPath("a/25.jpg")
        var changed = asset
        changed.ctimeNanoseconds += 1
        for other in [moved, elsewhere, changed] {
            #expect(throws: ViewLayerError.stale, "\(other.path)") {
                try plans.plans(from: other, ahead: 3, location: .strip, metadata: .keep)
            }
        }
    }

    /// A plan read ahead that does not decode is left out; its own read fails closed.
    @Test func anUndecodablePlanReadAheadIsLeftOut() throws {
        let library = try TestLibrary(folders: ["a", "b"], photos: Self.photos)
        let first = try #require(try library.catalog.asset(at: LibraryPath("a/1.jpg"))?.asset)
        let broken = try #require(try library.catalog.asset(at: LibraryPath("a/2.jpg"))?.asset)
        let db = try Database(path: library.catalogPath)
        let update = try db.statement("UPDATE asset_plans SET plan = ?1 WHERE kind = 0 AND id = ?2")
        try update.bind(1, [0, 1])
        try update.bind(2, broken.id.rawValue)
        try update.run()
        let plans = StoredPlans(path: library.catalogPath)
        let batch = try plans.plans(from: first, ahead: 2, location: .strip, metadata: .keep)
        let after = try ["a/3.jpg", "a/4.jpg"].map { try #require(try library.catalog.asset(at: LibraryPath($0))?.asset.id) }
        #expect(batch.ahead.plans.map(\.version.id) == after)
        do {
            let served = try plans.plan(of: broken, location: .strip, metadata: .keep)
            Issue.record("an undecodable plan was served: \(served)")
        } catch {
            guard case .planUnavailable = error else {
                Issue.record("\(error), not planUnavailable")
                return
            }
        }
    }

    /// Every fetch is one range of `asset_plans`' primary key, in path order (no read of
    /// `assets`, no sort), on a catalog migrated to the current version.
    @Test func everyFetchIsARangeOfThePlanTablesKey() throws {
        let library = try TestLibrary(photos: ["a.jpg": "Ada"])
        let db = try Database(path: library.catalogPath)
        for (location, metadata) in [
            (LocationPolicy.strip, MetadataPolicy.keep), (.coarse, .keep), (.strip, .private), (.coarse, .private),
        ] {
            let explain = try db.statement("EXPLAIN QUERY PLAN " + StoredPlans.query(location: location, metadata: metadata))
            var details: [String] = []
            while try explain.step() { details.append(explain.text(3)) }
            explain.reset()
            #expect(details == ["SEARCH asset_plans USING PRIMARY KEY (kind=? AND path>?)"], "\(location) \(metadata): \(details)")
        }
    }
}
