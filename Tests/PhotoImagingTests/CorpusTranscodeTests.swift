import Foundation
import Glibc
import TestSupport
import Testing

@testable import PhotoImaging

/// `photofs transcode` (the compatible representation, through the decoder processes) over
/// every HEIC, HEIF and AVIF of the shared corpus that libheif's own `heif-convert` decodes:
/// Pillow without any HEIF plugin opens the JPEG; at quality 100 its pixels match
/// heif-convert's decode at PSNR >= 40 dB (the decode is right); at the default 0.8 they
/// are at least as close as heif-convert's own JPEG at 80 (a detailed picture loses more
/// than 40 dB to any quality-80 JPEG: 32 dB for both on libheif's example.heic); date and
/// camera survive, it is upright with orientation 1 like libheif's decode, and under
/// `strip` exiftool (`-ee`) finds no location in it.
@Suite(.serialized) struct CorpusTranscodeTests {
    @Test func everyHEIFAssetTranscodesFaithfully() throws {
        guard Corpus.directory != nil, Fixture.photofsBuilt, Fixture.tool("exiftool") != nil, HEIFReference.heifConvert != nil
        else { try Skip.because("a prerequisite is missing (the line above says which)") }
        guard access("/usr/bin/python3", X_OK) == 0, try Fixture.run("/usr/bin/python3", ["-c", "import PIL"]).status == 0 else {
            try Skip.because("/usr/bin/python3 with Pillow (python3-pil) is not installed")
        }
        let dir = Fixture.directory()
        defer { Fixture.remove(dir) }
        let entries = try Corpus.manifest().filter { ["HEIC", "HEIF", "AVIF"].contains($0["fileType"] as? String ?? "") }
        var cases: [(source: String, entry: [String: Any], reference: String, theirs: String, jpeg: String, best: String)] = []
        for (index, entry) in entries.enumerated() {
            guard let source = Corpus.path(entry) else { continue }
            // What libheif itself cannot decode is not an asset this test can judge.
            guard let reference = try HEIFReference.convert(source, to: "\(dir)/ref-\(index).png"),
                let theirs = try HEIFReference.convert(source, to: "\(dir)/their-\(index).jpg", quality: 80)
            else { continue }
            let name = ((source as NSString).lastPathComponent as NSString).deletingPathExtension
            cases.append((source, entry, reference, theirs, "\(dir)/out-\(index)/\(name).jpg", "\(dir)/best-\(index)/\(name).jpg"))
        }
        try #require(cases.count >= 5)
        for item in cases {
            for (jpeg, quality) in [(item.jpeg, "0.8"), (item.best, "100")] {
                let folder = (jpeg as NSString).deletingLastPathComponent
                let status = try Fixture.run(
                    Fixture.photofs, ["transcode", "--quiet", "--quality", quality, "--output", folder, item.source]
                ).status
                #expect(status == 0, "\(item.source) did not transcode")
            }
        }
        let input =
            cases.flatMap { ["\($0.jpeg)\t\($0.reference)", "\($0.best)\t\($0.reference)", "\($0.theirs)\t\($0.reference)"] }
            .joined(separator: "\n") + "\n"
        let script = dir + "/compare.py"
        try Data(HEIFReference.compareScript.utf8).write(to: URL(fileURLWithPath: script))
        let inputFile = dir + "/pairs.txt"
        try Data(input.utf8).write(to: URL(fileURLWithPath: inputFile))
        let compared = try Fixture.run("/bin/sh", ["-c", "/usr/bin/python3 \"$0\" < \"$1\"", script, inputFile]).output
            .split(separator: "\n").map(String.init)
        #expect(compared.count == 3 * cases.count)
        let ours = try ExifToolReading.read(cases.map(\.jpeg), extraArguments: ["-ee"])
        let sources = try ExifToolReading.read(cases.map(\.source))
        for (n, item) in cases.enumerated() {
            let lines = compared.dropFirst(3 * n).prefix(3).map { $0.split(separator: " ").map(String.init) }
            guard lines.count == 3, lines.allSatisfy({ $0.count == 5 && $0[0] == "ok" && $0[1] == "JPEG" }) else {
                Issue.record("\(item.source): \(lines)")
                continue
            }
            let (psnr, best, theirs) = (Double(lines[0][4]) ?? 0, Double(lines[1][4]) ?? 0, Double(lines[2][4]) ?? 0)
            #expect(best >= 40, "\(item.source): PSNR at quality 100 is \(best) dB")
            #expect(psnr >= min(40, theirs - 0.5), "\(item.source): PSNR at 0.8 is \(psnr) dB, heif-convert's JPEG \(theirs) dB")
            let tags = ours[item.jpeg] ?? [:]
            let original = sources[item.source] ?? [:]
            for key in ["ExifIFD:DateTimeOriginal", "IFD0:Make", "IFD0:Model", "ExifIFD:LensModel"] where original[key] != nil {
                #expect("\(tags[key] ?? "-")" == "\(original[key]!)", "\(item.source): \(key)")
            }
            #expect(tags["IFD0:Orientation"] == nil || tags["IFD0:Orientation"] as? Int == 1, "\(item.source): orientation")
            #expect(ExifToolReading.locationKeys(tags).isEmpty, "\(item.source): location left \(ExifToolReading.locationKeys(tags))")
        }
        print("corpus transcode: \(cases.count) HEIF-family files (ours at 0.8, ours at 100, heif-convert at 80): \(compared)")
    }
}
