import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// Kodak cameras' maker notes (a binary block, not an IFD: `KDK INFO` and model in the
/// DX4900's, capture times in the DC3400's) leave every `--metadata private` view: the
/// corpus's Kodak files, found by Make in `manifest.json`, are planned and checked with
/// exiftool `-G0` (no `MakerNotes` group) and for Kodak's signature bytes.
@Suite struct KodakMakerNoteTests {
    @Test func noKodakMakerNoteSurvivesPrivate() throws {
        guard let dir = Corpus.directory else { try Skip.because("KodakMakerNoteTests: corpus not found (set PHOTOFS_CORPUS)") }
        guard let exiftool = ExternalTools.exiftool else { try Skip.because("KodakMakerNoteTests: exiftool not installed") }
        let manifest = try #require(FileManager.default.contents(atPath: dir + "/manifest.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: manifest) as? [[String: Any]])
        let kodak = entries.filter { ($0["Make"] as? String)?.uppercased().contains("KODAK") ?? false }.compactMap { $0["path"] as? String }
        #expect(kodak.count >= 2, "the corpus should hold Kodak files: \(kodak)")
        let folder = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        func makerNoteTags(_ path: String) throws -> [String] {
            try ExternalTools.run(exiftool, ["-a", "-G0", "-s", "-MakerNotes:all", path]).stdout.split(separator: "\n").map(String.init)
        }
        var withNotes = 0
        for (index, path) in kodak.enumerated() {
            let original = try #require(FileByteSource.contents(of: dir + "/" + path))
            if !(try makerNoteTags(dir + "/" + path)).isEmpty { withNotes += 1 }
            let source = MemoryByteSource(original)
            let format = try #require(MediaSniffer.format(of: source))
            let plans = RedactionPlanner.plans(layout: ContainerWalker.layout(of: source, format: format), source: source)
            for policy in LocationPolicy.allCases {
                var served = original
                #expect(plans.plan(for: policy, metadata: .private).apply(to: &served, at: 0), "\(path) \(policy): withheld")
                let out = folder.appendingPathComponent("\(index)-\(policy).jpg").path
                try Data(served).write(to: URL(fileURLWithPath: out))
                #expect(try makerNoteTags(out).isEmpty, "\(path) \(policy): a maker note survives")
                #expect(!String(decoding: served, as: UTF8.self).contains("KDK"), "\(path) \(policy): Kodak's signature survives")
            }
        }
        #expect(withNotes >= 2, "the corpus's Kodak files should carry maker notes")
    }
}
