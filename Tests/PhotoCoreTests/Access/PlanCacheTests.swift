import MediaFormats
import Testing

@testable import PhotoCore

/// The read path's plan cache: a plan is served only for the version of the file it was
/// fetched or read ahead for, a reader going through a folder in order finds the plans
/// read ahead (in the background, the window doubling while it goes on), and any other
/// miss reads ahead little.
@Suite("plan cache: versions and read-ahead")
struct PlanCacheTests {
    /// Assets `0…count-1` in the source's order, each with a plan of its own.
    static func assets(_ count: Int) -> [Asset] {
        (0..<count).map { ViewFixtures.asset(String($0, radix: 16), "f/\(1000 + $0).jpg", mtime: 1_700_000_000_000_000_000 + Int64($0)) }
    }

    static func plan(of asset: Asset) -> ServedPlan {
        .location(.patches([Patch(offset: 10, bytes: Array(asset.id.rawValue.utf8))]))
    }

    /// A source over `assets` in order, recording the read-ahead each fetch asked for.
    final class Source: @unchecked Sendable {
        let assets: [Asset]
        var fetched: [(id: AssetID, ahead: Int)] = []
        var readAhead: [(id: AssetID, count: Int)] = []
        var failsReadAhead = false

        init(_ assets: [Asset]) { self.assets = assets }

        func fetch(_ asset: Asset, ahead: Int) throws(ViewLayerError) -> PlanBatch {
            fetched.append((asset.id, ahead))
            guard let at = assets.firstIndex(where: { $0.id == asset.id }), assets[at].isSameFile(as: asset) else { throw .stale }
            return PlanBatch(plan: PlanCacheTests.plan(of: asset), ahead: plans(from: at + 1, count: ahead))
        }

        func fetch(at cursor: PlanCursor, count: Int) throws(ViewLayerError) -> PlansAhead {
            readAhead.append((cursor.id, count))
            if failsReadAhead { throw .planUnavailable("read-ahead refused") }
            guard let at = assets.firstIndex(where: { $0.id == cursor.id && $0.path == cursor.path }) else { return PlansAhead() }
            return plans(from: at, count: count)
        }

        private func plans(from at: Int, count: Int) -> PlansAhead {
            let end = min(assets.count, at + count)
            let plans = assets[min(at, end)..<end].map {
                VersionedPlan(version: FileVersion(of: $0), plan: PlanCacheTests.plan(of: $0))
            }
            let next = end < assets.count ? PlanCursor(id: assets[end].id, path: assets[end].path) : nil
            return PlansAhead(plans: plans, next: next)
        }
    }

    /// A cache whose background read-ahead runs at once, in the read that starts it.
    static func cache(capacity: Int = 512) -> PlanCache {
        PlanCache(capacity: capacity, initialWindow: 4, maxWindow: 64, start: { $0() })
    }

    func read(_ asset: Asset, _ cache: PlanCache, _ source: Source, location: LocationPolicy = .strip, metadata: MetadataPolicy = .keep)
        throws(ViewLayerError) -> ServedPlan
    {
        try cache.plan(
            of: asset, location: location, metadata: metadata,
            fetch: { (ahead: Int) throws(ViewLayerError) -> PlanBatch in try source.fetch(asset, ahead: ahead) },
            readAhead: { (cursor: PlanCursor, count: Int) throws(ViewLayerError) -> PlansAhead in
                try source.fetch(at: cursor, count: count)
            })
    }

    /// One fetch of the first plan; from then on, each time the reader is halfway through
    /// the plans read ahead, the next window (twice as large, up to 64) is read ahead.
    @Test func aReaderGoingThroughAFolderFindsThePlansReadAhead() throws {
        let assets = Self.assets(300)
        let source = Source(assets)
        let cache = Self.cache()
        for asset in assets { #expect(try read(asset, cache, source) == Self.plan(of: asset)) }
        #expect(source.fetched.map(\.ahead) == [4])
        #expect(source.readAhead.map(\.count) == [8, 16, 32, 64, 64, 64, 64])
        #expect(source.readAhead.map(\.id) == [5, 13, 29, 61, 125, 189, 253].map { assets[$0].id })
        // Read again: every plan is kept, nothing is fetched.
        for asset in assets { _ = try read(asset, cache, source) }
        #expect(source.fetched.count == 1)
        #expect(source.readAhead.count == 7)
    }

    /// A reader ahead of the read-ahead (it failed, or has not ended) misses on the plan
    /// after the last one read ahead: that fetch doubles the window itself.
    @Test func aMissRightAfterTheReadAheadDoublesTheWindow() throws {
        let assets = Self.assets(100)
        let source = Source(assets)
        source.failsReadAhead = true
        let cache = Self.cache()
        for asset in assets { #expect(try read(asset, cache, source) == Self.plan(of: asset)) }
        #expect(source.fetched.map(\.ahead) == [4, 8, 16, 32, 64])
        #expect(source.fetched.map(\.id) == [0, 5, 14, 31, 64].map { assets[$0].id })
    }

    @Test func aMissElsewhereReadsAheadLittle() throws {
        let assets = Self.assets(200)
        let source = Source(assets)
        let cache = Self.cache()
        for asset in assets[0..<20] { _ = try read(asset, cache, source) }
        #expect(source.fetched.map(\.ahead) == [4])
        #expect(source.readAhead.map(\.count) == [8, 16])
        // A jump past the plans read ahead: the window starts again.
        _ = try read(assets[150], cache, source)
        _ = try read(assets[100], cache, source)
        #expect(source.fetched.map(\.ahead) == [4, 4, 4])
        // Going on after the jump reads ahead again.
        for asset in assets[101..<115] { _ = try read(asset, cache, source) }
        #expect(source.fetched.map(\.ahead) == [4, 4, 4])
        #expect(source.readAhead.map(\.count) == [8, 16, 8, 16])
        #expect(source.readAhead.map(\.id) == [5, 13, 105, 113].map { assets[$0].id })
    }

    /// Each pair of policies has its read-ahead: three views read in turn all read ahead.
    @Test func viewsReadInTurnEachReadAhead() throws {
        let assets = Self.assets(40)
        let source = Source(assets)
        let cache = Self.cache()
        for asset in assets {
            _ = try read(asset, cache, source, location: .strip)
            _ = try read(asset, cache, source, location: .coarse)
            _ = try read(asset, cache, source, location: .strip, metadata: .private)
        }
        #expect(source.fetched.map(\.ahead) == [4, 4, 4])
        #expect(source.readAhead.map(\.count) == [8, 8, 8, 16, 16, 16, 32, 32, 32])
    }

    /// A plan read ahead belongs to the version of the file the source had: an asset of
    /// another size or times (the file changed since) is not served it, and the source is
    /// asked, which refuses.
    @Test func aPlanReadAheadServesOnlyItsVersion() throws {
        let assets = Self.assets(10)
        let source = Source(assets)
        let cache = Self.cache()
        _ = try read(assets[0], cache, source)
        #expect(cache.holds(assets[1], location: .strip, metadata: .keep))
        #expect(!cache.holds(assets[1], location: .coarse, metadata: .keep))
        var changes: [(String, (inout Asset) -> Void)] = [
            ("size", { $0.size += 1 }), ("mtime", { $0.mtimeNanoseconds += 1 }), ("inode", { $0.inode += 1 }),
            ("ctime", { $0.ctimeNanoseconds += 1 }),
        ]
        changes.append(("id", { $0.id = AssetID("ffffffffffff")! }))
        for (field, change) in changes {
            var other = assets[1]
            change(&other)
            #expect(!cache.holds(other, location: .strip, metadata: .keep), "another \(field)")
            let fetches = source.fetched.count
            #expect(throws: ViewLayerError.stale, "another \(field)") { try read(other, cache, source) }
            #expect(source.fetched.count == fetches + 1, "another \(field) asks the source")
        }
        // The version read ahead is served without a fetch.
        let fetches = source.fetched.count
        #expect(try read(assets[1], cache, source) == Self.plan(of: assets[1]))
        #expect(source.fetched.count == fetches)
    }

    @Test func aFailedFetchKeepsNothingAndTheCacheIsBounded() throws {
        let assets = Self.assets(100)
        let source = Source(assets)
        var gone = assets[3]
        gone.size += 1
        let cache = Self.cache(capacity: 8)
        #expect(throws: ViewLayerError.stale) { try read(gone, cache, source) }
        #expect(!cache.holds(assets[4], location: .strip, metadata: .keep))
        for asset in assets { _ = try read(asset, cache, source) }
        #expect(assets.filter { cache.holds($0, location: .strip, metadata: .keep) }.count == 8)
        #expect(cache.holds(assets[99], location: .strip, metadata: .keep))
        #expect(!cache.holds(assets[0], location: .strip, metadata: .keep))
    }
}
