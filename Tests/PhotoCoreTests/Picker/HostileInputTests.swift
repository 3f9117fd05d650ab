import PhotoSamples
import Testing

@testable import PhotoCore

/// Random input never crashes or hangs the parsers: every input either parses or throws
/// a typed error. Deterministic (a fixed-seed generator), so a failure is reproducible.
@Suite struct HostileInputTests {

    @Test func randomFiltersParseOrFailCleanly() {
        var random = SeededRandom(seed: 1)
        let pieces = [
            "type:", "image", "taken:", "2024", "-06", "..", ">=", "<", "(", ")", "-", "NOT ", " OR ", " AND ", "\"", "'", ":", " ",
            "size:", "10MB", "KiB", "name:", "*", "?", "[", "]", "!", "\\", "folder:", "/", "..", "é", "\u{0}", "\n", "megapixels:",
            "1.5", "width:", "99999999999999999999", "has:", "location", "camera:", "x",
        ]
        var parsed = 0
        var failed = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...12, using: &random)
            let text = (0..<count).map { _ in pieces.randomElement(using: &random)! }.joined()
            do {
                let filter = try Filter(text)
                _ = SampleAssets.all.values.map(filter.matches)
                parsed += 1
            } catch {
                #expect(error.position >= 0 && error.position <= text.count)
                #expect(!error.description.contains("\n"))
                failed += 1
            }
        }
        #expect(parsed > 100 && failed > 100)
    }

    @Test func randomWritesParseOrFailCleanly() {
        var random = SeededRandom(seed: 2)
        let pieces: [[UInt8]] =
            [
                "app", "add", "set", "remove", "select", "deselect", "clear", "ed", "--filter", "--where", "--limit", "--uid", "--location",
                "strip", "5", "none", " ", " ", "\n", "'", "\"", "\\", "#", "--", "type:image", "000000000041", "Trips/2024/IMG_0001.JPG",
            ].map { Array($0.utf8) } + [[0xFF], [0x00], [0xC3], [0x0D]]
        let index = AssetIndex(Array(SampleAssets.all.values))
        let base = AccessState(apps: ["ed": App(name: "ed")])
        var applied = 0
        var refused = 0
        for _ in 0..<3000 {
            let count = Int.random(in: 0...16, using: &random)
            let bytes = (0..<count).flatMap { _ in pieces.randomElement(using: &random)! }
            do {
                let (state, _) = try PickerExecutor.apply(write: bytes, to: base, assets: index, now: 1)
                #expect(state.grants.keys.allSatisfy { state.apps[$0] != nil })
                applied += 1
            } catch {
                #expect(!error.reason.contains("\n"))
                refused += 1
            }
        }
        #expect(applied > 100 && refused > 100)
    }
}
