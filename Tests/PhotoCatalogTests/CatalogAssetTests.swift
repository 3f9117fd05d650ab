import CatalogTestSupport
import Glibc
import MediaFormats
import PhotoCore
import SystemKit
import Testing

@testable import PhotoCatalog

/// A record with every field set, including a path that is not UTF-8 and holds a newline.
func fullRecord(id: String = "3f9a1c0d2b7e", path: [UInt8] = Array("Trips/2024/".utf8) + [0xFF, 0x0A, 0xC3, 0x28] + Array(" IMG.jpg".utf8))
    -> AssetRecord
{
    let metadata = MediaMetadata(
        format: .heic, captureDate: CaptureDate(year: 2024, month: 6, day: 15, hour: 13, minute: 4, second: 59, utcOffsetMinutes: -330),
        dateSource: .dateTimeOriginal, make: "Apple", model: "iPhone 15 Pro", lens: "iPhone 15 Pro back triple camera 6.765mm f/1.78",
        orientation: 6, width: 4032, height: 3024, location: GeoLocation(latitude: -33.8568, longitude: 151.2153, altitude: -12.5),
        hasExif: true, software: "17.5.1", saysScreenshot: true, problems: ["XMP packet truncated", "a line\nbreak inside"])
    let plans = RedactionPlans(
        strip: .patches([Patch(offset: 100, bytes: [0, 0, 0, 0]), Patch(offset: 4_000_000_000, bytes: [0x20, 0x41, 0x42])]),
        coarse: .withheld(reason: "container truncated at byte 512"))
    let asset = Asset(
        id: AssetID(id)!, path: LibraryPath(bytes: path), size: 5_123_456_789, mtimeNanoseconds: 1_718_456_699_123_456_789,
        inode: UInt64.max - 7, metadata: metadata, redaction: plans)
    return AssetRecord(
        asset: asset, fingerprint: id + String(repeating: "0", count: 52), indexedAtNanoseconds: 1_800_000_000_000_000_000, redaction: plans
    )
}

/// A record with every optional field empty.
func bareRecord(id: String, path: String, fingerprint: String? = nil) -> AssetRecord {
    AssetRecord(
        asset: Asset(
            id: AssetID(id)!, path: LibraryPath(path), size: 0, mtimeNanoseconds: -5, inode: 0,
            metadata: MediaMetadata(format: .jpeg), redaction: .notPlanned),
        fingerprint: fingerprint ?? id + String(repeating: "1", count: 52), indexedAtNanoseconds: 0, redaction: .notPlanned)
}

private func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// The process's resident set in MiB, from /proc/self/statm.
private func residentMegabytes() -> Int {
    guard let bytes = FileOps.read(Array("/proc/self/statm".utf8)) else { return 0 }
    let fields = String(decoding: bytes, as: UTF8.self).split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1 << 20)
}

@Suite("Catalog assets")
struct CatalogAssetTests {
    @Test func everyFieldSurvivesAReopen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        var expected = fullRecord()
        let bare = bareRecord(id: "00000000000a", path: "a.jpg")
        try Catalog.open(at: path).upsert([expected, bare])

        let catalog = try Catalog.open(at: path)
        // Problems are one per line: a line break inside one becomes a space.
        expected.asset.metadata.problems[1] = "a line break inside"
        #expect(try catalog.asset(id: expected.asset.id) == expected)
        #expect(try catalog.asset(at: expected.asset.path) == expected)
        #expect(try catalog.asset(id: bare.asset.id) == bare)
        let snapshot = try catalog.snapshot()
        #expect(Set(snapshot.assets) == [expected.asset, bare.asset])
    }

    @Test(
        arguments: [
            ("3f9a1c0d2b7e", "3f9a1c0d2b7e"), ("3F9A1C0D2B7E", "3f9a1c0d2b7e"), ("3f9a1c0d2b7", nil), ("3f9a1c0d2b7e0", nil),
            ("3f9a1c0d2b7g", nil), ("3f9a1c0d2b7/", nil), ("", nil), ("3f9a1c0d2b:e", nil),
        ] as [(String, String?)])
    func assetIDFromBytesFollowsTheStringRule(text: String, expected: String?) {
        let fromBytes = Array(text.utf8).withUnsafeBufferPointer { AssetID(utf8: $0) }
        #expect(fromBytes?.rawValue == expected)
        #expect(fromBytes == AssetID(text))
    }

    @Test func aPathNamesOneFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        try catalog.upsert([bareRecord(id: "00000000000a", path: "x.jpg")])
        try catalog.upsert([bareRecord(id: "00000000000b", path: "x.jpg")])
        #expect(try catalog.assetCount() == 1)
        #expect(try catalog.asset(at: LibraryPath("x.jpg"))?.asset.id.rawValue == "00000000000b")
        try catalog.deleteAssets([AssetID("00000000000b")!])
        #expect(try catalog.assetCount() == 0)
    }

    @Test(arguments: [
        ("3F9A1C0D2B7E", ["3f9a1c0d2b7e"]),
        ("Trips/a.jpg", ["00000000000a"]),
        ("./Trips/a.jpg", ["00000000000a"]),
        ("/Trips/a.jpg", ["00000000000a"]),
        ("00000000000b", ["00000000000b"]),
        ("nothing.jpg", []),
        ("3f9a1c0d2b7", []),
    ])
    func findsAssetsByPathOrID(word: String, ids: [String]) throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        try catalog.upsert([
            fullRecord(), bareRecord(id: "00000000000a", path: "Trips/a.jpg"), bareRecord(id: "00000000000b", path: "b.jpg"),
        ])
        #expect(try catalog.assets(matchingPathOrID: Array(word.utf8)).map(\.asset.id.rawValue) == ids)
    }

    @Test func aNameThatLooksLikeAnIDMatchesBoth() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        try catalog.upsert([bareRecord(id: "00000000000a", path: "00000000000b"), bareRecord(id: "00000000000b", path: "b.jpg")])
        #expect(
            try catalog.assets(matchingPathOrID: Array("00000000000b".utf8)).map(\.asset.id.rawValue) == ["00000000000b", "00000000000a"])
    }

    @Test func remembersItsLibraryAndRefusesAnother() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let path = dir.string + "/c.sqlite"
        let library: [UInt8] = Array("/photos/".utf8) + [0xFE]
        #expect(try Catalog.open(at: path, library: library).libraryRoot == library)
        #expect(try Catalog.open(at: path).libraryRoot == library)
        #expect(try Catalog.open(at: path, library: library).libraryRoot == library)
        #expect(throws: CatalogError.libraryMismatch(stored: "/photos/\u{FFFD}", given: "/other")) {
            _ = try Catalog.open(at: path, library: Array("/other".utf8))
        }
    }

    @Test func failuresRoundTrip() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let records = [
            FailureRecord(
                path: LibraryPath(bytes: [0x61, 0xFF]), size: 3, mtimeNanoseconds: 9, inode: 4, reason: .notMedia, recordedAtNanoseconds: 1),
            FailureRecord(
                path: LibraryPath("b/c.txt"), size: 0, mtimeNanoseconds: -1, inode: UInt64.max,
                reason: .unreadable(errno: .permissionDenied),
                recordedAtNanoseconds: 2),
        ]
        try catalog.withIndexTransaction { (writer: IndexWriter) throws(CatalogError) in
            for record in records { try writer.write(record) }
        }
        #expect(try catalog.failures() == records)
        #expect(try catalog.failure(at: LibraryPath("b/c.txt")) == records[1])
    }

    /// The daemon loads a snapshot at mount: 100,000 assets load whole. The time is printed
    /// for information only; speed is measured by the benchmarks, not asserted here.
    @Test func snapshotLoadsAHundredThousandAssets() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        var records: [AssetRecord] = []
        records.reserveCapacity(100_000)
        let template = fullRecord()
        for n in 0..<100_000 {
            var record = template
            let hex = String(n, radix: 16)
            let id = String(repeating: "0", count: 12 - hex.count) + hex
            record.asset.id = AssetID(id)!
            record.asset.path = LibraryPath("Photos/\(n / 1000)/IMG_\(n).jpg")
            record.redaction = n % 2 == 0 ? RedactionPlans(strip: .identity, coarse: .identity) : template.redaction
            record.fingerprint = id + String(repeating: "0", count: 52)
            records.append(record)
        }
        try catalog.upsert(records)
        let residentBefore = residentMegabytes()
        let start = Indexer.monotonicSeconds()
        let cpuStart = threadCPUSeconds()
        let snapshot = try catalog.snapshot()
        let seconds = Indexer.monotonicSeconds() - start
        let cpu = threadCPUSeconds() - cpuStart
        print(
            "snapshot of \(snapshot.assets.count) assets: \(Int(seconds * 1000)) ms wall, \(Int(cpu * 1000)) ms CPU, resident memory +\(residentMegabytes() - residentBefore) MB"
        )
        #expect(snapshot.assets.count == 100_000)
        #expect(Set(snapshot.assets.map(\.id)).count == 100_000)
        #expect(snapshot.assets.first { $0.id == AssetID("000000001092") }?.path == LibraryPath("Photos/4/IMG_4242.jpg"))
    }
}
