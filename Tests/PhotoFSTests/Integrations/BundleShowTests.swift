import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs show` names the files that belong with an asset: a RAW+JPEG pair made from the
/// corpus's Nikon NEF and JPEG under one stem (badged RAW+JPEG) and an XMP sidecar beside
/// them, which is not an asset (`photofs show` of it says so) and so is never served.
@Suite("show: RAW+JPEG pairs and sidecars", .enabled(if: DaemonProcess.binaryExists))
struct BundleShowTests {
    @Test func aRawJPEGPairAndItsSidecarAreShownTogether() throws {
        guard let corpus = SharedCorpus.directory else { try Skip.because("BundleShowTests: corpus not found (set PHOTOFS_CORPUS)") }
        let base = try ExternalTools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: base) }
        let library = base.appendingPathComponent("library").path
        let catalog = base.appendingPathComponent("catalog.sqlite").path
        try FileManager.default.createDirectory(atPath: library + "/2024", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: corpus + "/exiftool/Nikon.nef", toPath: library + "/2024/DSC_0001.NEF")
        try FileManager.default.copyItem(atPath: corpus + "/exiftool/Nikon.jpg", toPath: library + "/2024/DSC_0001.JPG")
        try FileManager.default.copyItem(atPath: corpus + "/exif-samples/Canon_40D.jpg", toPath: library + "/2024/other.jpg")
        FileManager.default.createFile(
            atPath: library + "/2024/DSC_0001.xmp",
            contents: Data("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"/>".utf8))
        func photofs(_ arguments: [String]) -> (status: Int32, output: String) {
            run([DaemonProcess.binary] + arguments + ["--library", library, "--catalog", catalog])
        }
        let indexed = run([DaemonProcess.binary, "index", "--quiet", "--catalog", catalog, library])
        try #require(indexed.status == 0, "index: \(indexed.output)")
        for (shown, partner) in [("2024/DSC_0001.JPG", "2024/DSC_0001.NEF"), ("2024/DSC_0001.NEF", "2024/DSC_0001.JPG")] {
            let show = photofs(["show", shown])
            #expect(show.status == 0, "\(show.output)")
            let line = show.output.split(separator: "\n").first { $0.hasPrefix("bundle") }.map(String.init) ?? ""
            #expect(line.contains("RAW+JPEG: \(partner)"), "\(shown): \(line)")
            #expect(line.contains("2024/DSC_0001.xmp (XMP sidecar, never served)"), "\(shown): \(line)")
        }
        let alone = photofs(["show", "2024/other.jpg"])
        #expect(alone.status == 0 && !alone.output.contains("bundle"), "\(alone.output)")
        let sidecar = photofs(["show", "2024/DSC_0001.xmp"])
        #expect(sidecar.status != 0 && sidecar.output.contains("not an asset"), "\(sidecar.output)")
    }
}
