import CatalogTestSupport
import MediaFormats
import PhotoCore
import Testing

@testable import PhotoCatalog

/// A snapshot holds each distinct set of camera texts once: assets from the same camera
/// share one `CameraTexts`, and the values read back are the ones written.
@Suite("snapshot: shared camera texts")
struct SnapshotTextsTests {
    @Test func assetsFromOneCameraShareTheirTexts() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        var records: [AssetRecord] = []
        for n in 0..<6 {
            var record = bareRecord(id: String(format: "%012x", n + 1), path: "p/\(n).jpg")
            record.asset.metadata.make = n < 4 ? "Canon Inc. of a long name" : nil
            record.asset.metadata.model = n < 4 ? "Canon EOS R5 Mark II" : nil
            record.asset.metadata.software = n == 3 ? "Adobe Photoshop Lightroom Classic" : nil
            records.append(record)
        }
        try catalog.upsert(records)
        let assets = Array(try catalog.snapshot().assets).sorted { $0.id < $1.id }
        try #require(assets.count == 6)
        for (asset, record) in zip(assets, records) { #expect(asset.metadata == record.asset.metadata) }
        #expect(assets[0].metadata.texts === assets[1].metadata.texts)
        #expect(assets[0].metadata.texts === assets[2].metadata.texts)
        #expect(assets[3].metadata.texts !== assets[0].metadata.texts)
        #expect(assets[3].metadata.software == "Adobe Photoshop Lightroom Classic")
        #expect(assets[4].metadata.texts === CameraTexts.none)
        #expect(assets[5].metadata.texts === CameraTexts.none)
    }

    /// Texts are found by their columns' bytes: texts whose bytes differ only in which
    /// column holds them, in an empty text against none, or in case come back as written,
    /// each its own, and equal ones are shared.
    @Test func textsThatShareBytesStayApart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let catalog = try Catalog.open(at: dir.string + "/c.sqlite")
        let texts: [(make: String?, model: String?, lens: String?, software: String?)] = [
            ("ab", nil, nil, nil), (nil, "ab", nil, nil), ("a", "b", nil, nil), ("", "ab", nil, nil), (nil, nil, nil, "ab"),
            ("", nil, nil, nil), (nil, "", nil, nil), ("AB", nil, nil, nil), ("a long make of many bytes", "b", "", nil),
            ("a long make of many bytes", "b", nil, nil), ("ab", nil, nil, nil), ("a long make of many bytes", "b", "", nil),
        ]
        var records: [AssetRecord] = []
        for (n, text) in texts.enumerated() {
            var record = bareRecord(id: String(format: "%012x", n + 1), path: "p/\(n).jpg")
            record.asset.metadata.texts = CameraTexts(make: text.make, model: text.model, lens: text.lens, software: text.software)
            records.append(record)
        }
        try catalog.upsert(records)
        let assets = Array(try catalog.snapshot().assets).sorted { $0.id < $1.id }
        try #require(assets.count == texts.count)
        for (asset, record) in zip(assets, records) { #expect(asset.metadata.texts == record.asset.metadata.texts) }
        for a in 0..<10 {
            for b in 0..<10 where a != b { #expect(assets[a].metadata.texts != assets[b].metadata.texts, "\(a) and \(b)") }
        }
        #expect(assets[10].metadata.texts === assets[0].metadata.texts)
        #expect(assets[11].metadata.texts === assets[8].metadata.texts)
    }
}
