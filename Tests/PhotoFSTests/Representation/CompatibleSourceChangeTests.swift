import Foundation
import Glibc
import TestSupport
import Testing

/// A compatible JPEG follows its source through a real mount: when the HEIC under a name is
/// replaced by another picture, the watcher re-indexes it; the new content is another asset
/// (grants follow content), so the app's `.jpg` goes away, and once the new picture is
/// selected the same name serves its JPEG (the bytes `photofs transcode` makes of it) with
/// its size in `stat`: the old JPEG is never served again.
@Suite(
    "compatible representation: a changed source", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct CompatibleSourceChangeTests {
    @Test func replacingTheSourceServesTheNewJPEG() throws {
        let pictures = try SharedCorpus.files(
            "exif-samples/samplefilehub.heif", "metadata-extractor-images/32Bit-72dpi-sRGB-800x600.avif")
        let (first, second) = (pictures[0], pictures[1])
        let scratch = ScratchMount(prefix: "photofs-compatible-change")
        defer { scratch.remove() }
        scratch.add(first, as: "photo.heic")
        let daemon = try scratch.mount()
        defer { _ = daemon.unmount() }
        let (base, mountpoint) = (scratch.base, scratch.mountpoint)
        let setup = PickerFile.write(mountpoint, "app add web --representation compatible\nselect web photo.heic\n")
        try #require(setup.succeeded, "picker: \(setup)")
        let served = Array((mountpoint + "/apps/web/photo.jpg").utf8)
        let before = try ByteFiles.read(served)
        #expect(Int(try ByteFiles.stat(served).st_size) == before.count)

        // What photofs transcode makes of each picture (the same encoder, the same bytes).
        let expected = base + "/expected"
        for (source, name) in [(first, "first"), (second, "second")] {
            run(["/bin/cp", source, base + "/" + name + ".heic"])
            let made = run([
                "/usr/bin/env", "XDG_CACHE_HOME=\(scratch.cacheHome)", DaemonProcess.binary, "transcode", "--quiet", "--output", expected,
                base + "/" + name + ".heic",
            ])
            try #require(made.status == 0, "photofs transcode: \(made.output)")
        }
        let firstJPEG = try ByteFiles.read(Array((expected + "/first.jpg").utf8))
        #expect(before == firstJPEG, "apps/web/photo.jpg (\(before.count) bytes) is not photofs transcode's (\(firstJPEG.count))")

        // Replaced in place (another size, another picture): the name goes within the
        // watcher's delay, and comes back with the new JPEG once the new picture is selected.
        try ByteFiles.write(Array((scratch.library + "/photo.heic").utf8), try ByteFiles.read(Array(second.utf8)))
        var gone = false
        for _ in 0..<300 where !gone {
            usleep(100_000)
            gone = ByteFiles.errnoOf { served.cPath { access($0, F_OK) } } == ENOENT
        }
        #expect(gone, "apps/web/photo.jpg still there after its source changed")
        let again = PickerFile.write(mountpoint, "select web photo.heic\n")
        try #require(again.succeeded, "picker: \(again)")
        let wanted = try ByteFiles.read(Array((expected + "/second.jpg").utf8))
        let now = try ByteFiles.read(served)
        #expect(now == wanted, "apps/web/photo.jpg (\(now.count) bytes) is not the new picture's JPEG (\(wanted.count) bytes)")
        #expect(now != before)
        #expect(Int(try ByteFiles.stat(served).st_size) == wanted.count)
        #expect(daemon.unmount() == 0)
    }
}
