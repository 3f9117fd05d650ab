import Foundation
import Glibc
import TestSupport
import Testing

/// A HEIC or JPEG XL that no decoder reads has no compatible JPEG: the compatible view
/// withholds it (not listed, ENOENT) instead of showing an empty `.jpg` that reads 0 bytes,
/// and `.picker` says why, as for other withheld files. A decodable one beside it is served.
@Suite(
    "compatible representation: an undecodable source is withheld", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct UndecodableSourceTests {
    @Test func anUndecodableSourceIsWithheldWithItsReason() throws {
        // The second one's iloc box points past the end of the file: libheif refuses it.
        let pictures = try SharedCorpus.files("exif-samples/samplefilehub.heif", "libheif/github_50.heic")
        let scratch = ScratchMount(prefix: "photofs-undecodable")
        defer { scratch.remove() }
        scratch.add(pictures[0], as: "good.heif")
        scratch.add(pictures[1], as: "broken.heic")
        var names = ["good.jpg", "broken.jpg"]
        // A JPEG XL cut in half: its signature says JPEG XL, its codestream ends early.
        let cjxl = "/usr/bin/cjxl"
        if access(cjxl, X_OK) == 0, run([DaemonProcess.binary, "generate", scratch.base + "/generated", "--count", "1"]).status == 0,
            let jpeg = FileManager.default.enumerator(atPath: scratch.base + "/generated")?.allObjects.compactMap({ $0 as? String })
                .first(where: { $0.hasSuffix(".jpg") }),
            run([cjxl, scratch.base + "/generated/" + jpeg, scratch.base + "/whole.jxl"]).status == 0,
            let whole = FileManager.default.contents(atPath: scratch.base + "/whole.jxl"), whole.count > 200
        {
            try Data(whole.prefix(whole.count / 2)).write(to: URL(fileURLWithPath: scratch.library + "/cut.jxl"))
            names.append("cut.jpg")
        } else {
            print("UndecodableSourceTests: no cjxl (libjxl-tools): the JPEG XL case is skipped")
        }
        let daemon = try scratch.mount()
        defer { _ = daemon.unmount() }
        let mountpoint = scratch.mountpoint
        // Under --location keep: a file whose metadata cannot be walked (the cut JPEG XL) is
        // not withheld for its location, so only the decoder decides.
        let sources = names.map { $0 == "good.jpg" ? "good.heif" : $0 == "broken.jpg" ? "broken.heic" : "cut.jxl" }
        let setup = PickerFile.write(
            mountpoint, "app add web --representation compatible --location keep\n" + sources.map { "select web \($0)\n" }.joined())
        try #require(setup.succeeded, "picker: \(setup)")

        let listed = (try FileManager.default.contentsOfDirectory(atPath: mountpoint + "/apps/web")).sorted()
        #expect(listed == ["good.jpg"], "apps/web lists \(listed)")
        let served = try ByteFiles.read(Array((mountpoint + "/apps/web/good.jpg").utf8))
        #expect(served.count > 1000 && served.starts(with: [0xFF, 0xD8]))
        for name in names where name != "good.jpg" {
            let code = ByteFiles.errnoOf { Array((mountpoint + "/apps/web/" + name).utf8).cPath { access($0, F_OK) } }
            #expect(code == ENOENT, "\(name): errno \(code)")
        }
        let picker = PickerFile.read(mountpoint)
        for source in sources where source != "good.heif" {
            let line = picker.split(separator: "\n").first { $0.contains(source) }.map(String.init) ?? ""
            #expect(line.hasPrefix("# select web ") && line.contains("# withheld: \(source) has no compatible JPEG ("), "\(line)")
        }
        #expect(picker.contains("# good.heif") && !picker.contains("withheld: good.heif"), "\(picker)")
        #expect(daemon.unmount() == 0)
    }
}
