import CatalogTestSupport
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// A full read of the assets split over connections on several threads holds exactly what
/// one connection reading alone holds, in an order fixed by the catalog, with each camera
/// once; and the extra connections are used only when they read the same catalog state.
@Suite("snapshot read in parts")
struct SplitSnapshotTests {
    /// `count` records spread over the whole id space, with every kind of column value:
    /// each format and date source, dates that fit the packed form and one that does not,
    /// shared cameras with long names, locations with and without altitude, problems.
    static func records(count: Int) -> [AssetRecord] {
        let cameras: [(String?, String?, String?, String?)] = [
            ("Canon Inc. of a long name", "Canon EOS R5 Mark II", "RF24-70mm F2.8 L IS USM", "Firmware Version 1.0.2"),
            ("SONY", "ILCE-7M3", "FE 24-70mm F2.8 GM", "ILCE-7M3 v3.01"),
            ("Google", "Pixel 7", nil, "HDR+ 1.0.540104767zd"),
            (nil, nil, nil, "Adobe Photoshop Lightroom Classic"),
            ("Apple", "iPhone 15 Pro", "iPhone 15 Pro back triple camera 6.765mm f/1.78", nil),
        ]
        let sources: [DateSource] = [.dateTimeOriginal, .createDate, .dateTimeDigitized, .modifyDate, .quickTime, .xmp, .fileModification]
        return (0..<count).map { n in
            // A multiplier coprime to 2^48 visits the id space evenly.
            let id = AssetID(number: UInt64(n + 1) &* 0x9E37_79B9_7F4B & (1 << 48 - 1))!
            var metadata = MediaMetadata(
                format: MediaFormat.allCases[n % MediaFormat.allCases.count], dateSource: sources[n % sources.count],
                orientation: n % 9 == 0 ? nil : n % 9, width: n % 11 == 0 ? nil : 4000 + n, height: 3000, hasExif: n % 2 == 0,
                saysScreenshot: n % 13 == 0, problems: n % 50 == 0 ? ["XMP packet truncated", "second"] : [])
            if n % 5 != 0 {
                metadata.captureDate = CaptureDate(
                    year: n % 97 == 0 ? 12_000 : 2000 + n % 25, month: 1 + n % 12, day: 1 + n % 28, hour: n % 24, minute: n % 60,
                    second: n % 60, utcOffsetMinutes: n % 3 == 0 ? nil : (n % 7 - 3) * 60)
            }
            if n % 6 != 5 {
                let camera = cameras[n % cameras.count]
                metadata.texts = CameraTexts(make: camera.0, model: camera.1, lens: camera.2, software: camera.3)
            }
            if n % 4 == 0 {
                metadata.location = GeoLocation(latitude: Double(n % 90), longitude: -Double(n % 180), altitude: n % 8 == 0 ? 12.5 : nil)
                metadata.locationSources = .exifGPS
            }
            let asset = Asset(
                id: id, path: LibraryPath("folder \(n % 50)/IMG_\(n).JPG"), size: Int64(n) * 1_000, mtimeNanoseconds: Int64(n) << 20,
                inode: UInt64(n), ctimeNanoseconds: Int64(n) << 21, metadata: metadata, redaction: .notPlanned)
            return AssetRecord(
                asset: asset, fingerprint: id.rawValue + String(repeating: "2", count: 52), indexedAtNanoseconds: 1, redaction: .notPlanned)
        }
    }

    /// A full read with `parts` connections.
    private static func read(_ catalog: Catalog, parts: Int, reusing previous: ChunkedArray<Asset> = []) throws -> ChunkedArray<Asset> {
        try catalog.connection.withLock { (c: inout Catalog.Connection) throws(CatalogError) -> ChunkedArray<Asset> in
            try Catalog.readAll(&c, reusing: previous, parts: parts).snapshot.assets
        }
    }

    /// More rows than a chunk per part, so that the parts' full chunks and their rests
    /// both show in the joined order.
    @Test func partsHoldWhatOneConnectionReadsInAFixedOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let records = Self.records(count: 13_000)
        try catalog.upsert(records)

        let alone = try Self.read(catalog, parts: 1)
        #expect(Array(alone.map(\.id)) == records.map(\.asset.id).sorted())
        let written = Dictionary(uniqueKeysWithValues: records.map { ($0.asset.id, $0.asset) })
        #expect(alone.allSatisfy { written[$0.id] == $0 })

        for parts in [2, 3] {
            let split = try Self.read(catalog, parts: parts)
            // The order `ChunkedArray(joining:)` makes of the parts, each in id order.
            let expected = ChunkedArray(
                joining: IDRange.split(into: parts).map { range in
                    ChunkedArray(
                        alone.filter { id in
                            range.lower.map { id.id.rawValue >= $0 } ?? true && range.upper.map { id.id.rawValue < $0 } ?? true
                        })
                })
            #expect(split.count == alone.count, "\(parts) parts")
            #expect(split == expected, "\(parts) parts")
            #expect(try Self.read(catalog, parts: parts) == split, "\(parts) parts, read again")
            // Each camera is one object, whichever part read it.
            var cameras: [CameraTexts: ObjectIdentifier] = [:]
            for asset in split {
                let identity = ObjectIdentifier(asset.metadata.texts)
                #expect(cameras[asset.metadata.texts, default: identity] == identity, "\(parts) parts")
                cameras[asset.metadata.texts] = identity
            }
            #expect(cameras.count == 6, "\(parts) parts")
        }
        #expect(try catalog.snapshot().assets == Self.read(catalog, parts: Catalog.fullReadParts))
    }

    /// A read split in parts after a change shares every unchanged asset's path with the
    /// previous snapshot, and holds the change.
    @Test func aSplitReadSharesTheUnchangedAssets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        var records = Self.records(count: 9_000)
        try catalog.upsert(records)
        let first = try catalog.snapshot()
        records[17].asset.size += 1
        try catalog.upsert([records[17]])

        let second = try catalog.snapshot(reusing: first)
        let before = Dictionary(uniqueKeysWithValues: first.assets.map { ($0.id, $0) })
        #expect(second.assets.count == first.assets.count)
        for asset in second.assets {
            let old = try #require(before[asset.id])
            if asset.id == records[17].asset.id {
                #expect(asset.size == old.size + 1)
            } else {
                #expect(asset == old)
                #expect(asset.path.withBytes { $0.baseAddress } == old.path.withBytes { $0.baseAddress })
            }
        }
    }

    /// A reader joins the read only when nothing was committed between its first look and
    /// the start of the main connection's read transaction; then it sees the same rows.
    @Test func aReaderIsUsedOnlyAtTheSameState() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let catalog = try Catalog.open(at: path)
        let other = try Catalog.open(at: path)
        try catalog.upsert(Array(Self.records(count: 10)))

        for commitInBetween in [false, true] {
            try catalog.connection.withLock { (c: inout Catalog.Connection) throws(CatalogError) in
                let readers = SnapshotReaders(beside: c.db, count: 2)
                if commitInBetween { try other.upsert([bareRecord(id: "00000000abcd", path: "late.jpg")]) }
                try c.db.execute("BEGIN")
                defer { try? c.db.execute("COMMIT") }
                let rows = try c.db.scalarInt("SELECT count(*) FROM assets")
                let joined = readers.join()
                #expect(joined.count == (commitInBetween ? 0 : 2))
                for reader in joined { #expect(try reader.scalarInt("SELECT count(*) FROM assets") == rows) }
                // Committed now, it is seen by neither the main read nor a joined reader.
                try other.upsert([bareRecord(id: "0000000abcde", path: "later.jpg")])
                #expect(try c.db.scalarInt("SELECT count(*) FROM assets") == rows)
                for reader in joined { #expect(try reader.scalarInt("SELECT count(*) FROM assets") == rows) }
            }
        }
    }

    /// A catalog opened for reading only (or as immutable, on a read-only file system) gets
    /// a reader opened the same way, and the two read what it reads alone.
    @Test(arguments: [Database.ReadOnlyMode.readOnly, .immutable])
    func aReadOnlyCatalogIsReadInPartsToo(mode: Database.ReadOnlyMode) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        try Catalog.open(at: path).upsert(Self.records(count: 9_000))
        let db = try Database(path: path, readOnly: mode)
        let readers = SnapshotReaders(beside: db, count: 1)
        try db.execute("BEGIN")
        defer { try? db.execute("COMMIT") }
        _ = try db.scalarInt("PRAGMA data_version")
        let joined = readers.join()
        #expect(joined.count == 1)
        let split = try AssetRows.all(in: db, readers: joined)
        let alone = try AssetRows.all(in: db)
        #expect(split.count == 9_000)
        #expect(Set(split) == Set(alone))
    }

    @Test func rangesSplitTheIDSpaceEvenly() {
        #expect(IDRange.split(into: 1) == [IDRange(lower: nil, upper: nil)])
        #expect(IDRange.split(into: 2) == [IDRange(lower: nil, upper: "800000000000"), IDRange(lower: "800000000000", upper: nil)])
        #expect(
            IDRange.split(into: 3) == [
                IDRange(lower: nil, upper: "555555555555"), IDRange(lower: "555555555555", upper: "aaaaaaaaaaaa"),
                IDRange(lower: "aaaaaaaaaaaa", upper: nil),
            ])
    }
}
