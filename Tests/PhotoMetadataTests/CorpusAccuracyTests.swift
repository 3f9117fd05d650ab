import Foundation
import MediaFormats
import PhotoCore
import PhotoHashing
import Synchronization
import TestSupport
import Testing

@testable import PhotoMetadata

/// Every corpus file through `FileAnalyzer`, compared with exiftool's reading in
/// `manifest.json` for the values the manifest attributes to EXIF. Skips with a message
/// when the corpus is absent.
@Suite struct CorpusAccuracyTests {
    /// One compared value.
    struct Comparison {
        var file: String
        var field: String
        var expected: String
        var ours: String
        var agrees: Bool
    }

    @Test func analyzerAgreesWithExiftool() throws {
        guard let manifest = Corpus.manifest(), let directory = Corpus.directory else {
            try Skip.because("CorpusAccuracyTests: corpus not found (../shared/corpus or PHOTOFS_CORPUS); skipping")
        }
        let analyzer = FileAnalyzer()
        var comparisons: [Comparison] = []
        var analysed = 0
        var rejected: [String] = []
        for entry in manifest {
            guard let path = entry["path"] as? String else { continue }
            let result: AssetAnalysis
            do {
                result = try analyzer.analyze(absolutePath: Array((directory + "/" + path).utf8))
            } catch {
                switch error {
                case .notMedia:
                    rejected.append("\(path) (\(entry["fileType"] as? String ?? "unknown type")): not a photo or video format")
                case .unreadable(let code):
                    Issue.record("\(path): unreadable, errno \(code.rawValue)")
                case .notRegularFile(let kind):
                    Issue.record("\(path): \(kind.description)")
                }
                continue
            }
            analysed += 1
            // The sampled fingerprint of the file's bytes; the manifest's whole-file SHA-256
            // is what libcrypto's hash of the file says.
            let file = Array((directory + "/" + path).utf8)
            if let data = FileManager.default.contents(atPath: directory + "/" + path) {
                #expect(result.fingerprint == AssetFingerprint(of: [UInt8](data)).hex, "\(path): fingerprint differs from its bytes'")
            }
            if let sha = entry["sha256"] as? String {
                #expect(try FileDigest.sha256Hex(path: file) == sha, "\(path): SHA-256 differs from the manifest's")
            }
            comparisons += compare(path: path, entry: entry, metadata: result.metadata)
        }
        for line in rejected { print("rejected: \(line)") }
        let disagreements = comparisons.filter { !$0.agrees }
        for d in disagreements {
            print("disagreement: \(d.file) \(d.field): manifest \(d.expected), photofs \(d.ours)")
        }
        let agreement = comparisons.isEmpty ? 0 : Double(comparisons.count - disagreements.count) / Double(comparisons.count)
        print(
            "CorpusAccuracyTests: \(analysed) analysed, \(rejected.count) rejected; "
                + "\(comparisons.count - disagreements.count)/\(comparisons.count) EXIF values agree (\(String(format: "%.1f", agreement * 100))%)"
        )
        #expect(analysed + rejected.count == manifest.count)
        #expect(comparisons.count > 300)
        #expect(agreement >= 0.95)
    }

    /// The analyzer is called from several indexer threads at once: the same files analysed
    /// concurrently give the same results as one after another.
    @Test func concurrentAnalysisMatchesSerial() throws {
        guard let manifest = Corpus.manifest(), let directory = Corpus.directory else {
            try Skip.because("CorpusAccuracyTests: corpus not found; skipping the concurrency check")
        }
        let paths = manifest.compactMap { $0["path"] as? String }.map { Array((directory + "/" + $0).utf8) }
        let analyzer = FileAnalyzer()
        @Sendable func outcome(_ path: [UInt8]) -> String {
            do {
                let analysis = try analyzer.analyze(absolutePath: path)
                return "\(analysis.fingerprint) \(analysis.metadata) \(analysis.redaction)"
            } catch {
                return "\(error)"
            }
        }
        let serial = paths.map(outcome)
        let results = Mutex<[Int: String]>([:])
        DispatchQueue.concurrentPerform(iterations: paths.count) { index in
            let text = outcome(paths[index])
            results.withLock { $0[index] = text }
        }
        let concurrent = results.withLock { $0 }
        for index in paths.indices {
            #expect(concurrent[index] == serial[index], "\(String(decoding: paths[index], as: UTF8.self))")
        }
    }

    /// The comparisons for one file: each field whose manifest source starts with `EXIF:`.
    /// ImageHeight follows ImageWidth's source and GPSLongitude follows GPSLatitude's.
    func compare(path: String, entry: [String: Any], metadata: MediaMetadata) -> [Comparison] {
        let sources = entry["sources"] as? [String: Any] ?? [:]
        func fromEXIF(_ field: String) -> Bool { (sources[field] as? String)?.hasPrefix("EXIF:") ?? false }
        var result: [Comparison] = []
        func add(_ field: String, expected: Any?, ours: String?, agrees: Bool) {
            let shown =
                expected.map { value -> String in
                    if value is NSNull { return "none" }
                    // Coordinates stay out of test output too: only whether they matched.
                    return field.hasPrefix("GPS") ? "(a position)" : "\(value)"
                } ?? "none"
            let oursShown = field.hasPrefix("GPS") ? (ours == nil ? "none" : "(a position)") : (ours ?? "none")
            result.append(Comparison(file: path, field: field, expected: shown, ours: oursShown, agrees: agrees))
        }
        if fromEXIF("DateTimeOriginal") {
            let expected = entry["DateTimeOriginal"] as? String
            let ours = metadata.captureDate.map(exifText)
            add("DateTimeOriginal", expected: entry["DateTimeOriginal"], ours: ours, agrees: expected.map { String($0.prefix(19)) } == ours)
        }
        for field in ["Make", "Model"] where fromEXIF(field) {
            let expected = (entry[field] as? String).map { $0.trimmingCharacters(in: .whitespaces) }
            let ours = field == "Make" ? metadata.make : metadata.model
            add(field, expected: entry[field], ours: ours, agrees: expected == ours)
        }
        if fromEXIF("Orientation") {
            let expected = (entry["Orientation"] as? NSNumber)?.intValue
            add(
                "Orientation", expected: entry["Orientation"], ours: metadata.orientation.map(String.init),
                agrees: expected == metadata.orientation)
        }
        if fromEXIF("ImageWidth") {
            let width = (entry["ImageWidth"] as? NSNumber)?.intValue
            let height = (entry["ImageHeight"] as? NSNumber)?.intValue
            add("ImageWidth", expected: entry["ImageWidth"], ours: metadata.width.map(String.init), agrees: width == metadata.width)
            add("ImageHeight", expected: entry["ImageHeight"], ours: metadata.height.map(String.init), agrees: height == metadata.height)
        }
        if fromEXIF("GPSLatitude") {
            for (field, ours) in [("GPSLatitude", metadata.location?.latitude), ("GPSLongitude", metadata.location?.longitude)] {
                let expected = (entry[field] as? NSNumber)?.doubleValue
                let agrees: Bool
                if let expected, let ours {
                    agrees = abs(expected - ours) <= 1e-5
                } else {
                    agrees = expected == nil && ours == nil
                }
                add(field, expected: entry[field], ours: ours.map { "\($0)" }, agrees: agrees)
            }
        }
        return result
    }

    private func exifText(_ date: CaptureDate) -> String {
        String(format: "%04d:%02d:%02d %02d:%02d:%02d", date.year, date.month, date.day, date.hour, date.minute, date.second)
    }
}
