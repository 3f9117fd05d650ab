import Foundation
import Glibc
import TestSupport
import Testing

/// File managers built on GIO (Nautilus, Thunar through GIO's `thumbnail::path`; pcmanfm's
/// libfm reads the same cache the same way) look a thumbnail up by the MD5 of the URI they
/// browse and trust it when its `Thumb::URI` and `Thumb::MTime` match. Library thumbnails
/// are keyed by library addresses, so under the mount GIO finds none; `photofs thumbnails
/// --mount` writes them for the mount's own paths, and GIO then finds valid ones.
@Suite(
    "file managers find thumbnails of the mount's paths", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct FileManagerThumbnailTests {
    /// `gio info`'s thumbnail attributes of `path`, by name.
    static func gioThumbnail(_ path: String, cache: String) -> [String: String] {
        let info = run([
            "/usr/bin/env", "XDG_CACHE_HOME=\(cache)", "gio", "info", "-a", "thumbnail::path,thumbnail::is-valid", "file://" + path,
        ])
        var found: [String: String] = [:]
        for line in info.output.split(separator: "\n") {
            let parts = line.trimmingCharacters(in: .whitespaces).split(separator: " ", maxSplits: 1).map(String.init)
            if parts.count == 2, parts[0].hasPrefix("thumbnail::") { found[String(parts[0].dropLast())] = parts[1] }
        }
        return found
    }

    @Test func gioFindsValidThumbnailsForTheMountsPaths() throws {
        guard run(["/usr/bin/env", "gio", "version"]).status == 0 else { try Skip.because("no gio (Debian's libglib2.0-bin)") }
        let base = temporaryDirectory("photofs-file-manager")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        let cache = base + "/cache"
        let generated = run([DaemonProcess.binary, "generate", library, "--count", "3"])
        try #require(generated.status == 0, "photofs generate: \(generated.output)")
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(
            library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite", environment: ["XDG_CACHE_HOME": cache])
        defer { _ = daemon.unmount() }
        let photos = (FileManager.default.enumerator(atPath: library)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jpg") }
            .sorted()
        try #require(photos.count >= 2)
        let picked = PickerFile.write(mountpoint, "app add viewer\nselect viewer \"\(photos[0])\"\nselect viewer \"\(photos[1])\"\n")
        try #require(picked.succeeded, "picker: \(picked)")
        let shown = (try FileManager.default.contentsOfDirectory(atPath: mountpoint + "/apps/viewer")).filter { !$0.hasPrefix(".") }
        try #require(shown.count == 2, "apps/viewer holds \(shown)")

        // Thumbnails of the library: GIO finds them for the library's paths only.
        let library1 = URL(fileURLWithPath: library + "/" + photos[0]).resolvingSymlinksInPath().path
        let made = run([
            "/usr/bin/env", "XDG_CACHE_HOME=\(cache)", DaemonProcess.binary, "thumbnails", "--size", "normal", "--catalog",
            base + "/catalog.sqlite", "--quiet",
        ])
        #expect(made.status == 0, "\(made.output)")
        #expect(Self.gioThumbnail(library1, cache: cache)["thumbnail::is-valid"] == "TRUE")
        for name in shown {
            #expect(Self.gioThumbnail(mountpoint + "/apps/viewer/" + name, cache: cache)["thumbnail::path"] == nil)
        }

        // For the mount's paths.
        let mounted = run([
            "/usr/bin/env", "XDG_CACHE_HOME=\(cache)", DaemonProcess.binary, "thumbnails", "--mount", mountpoint, "--size", "normal",
        ])
        #expect(mounted.status == 0, "\(mounted.output)")
        #expect(mounted.output.contains("2 made"), "\(mounted.output)")
        for name in shown {
            let found = Self.gioThumbnail(mountpoint + "/apps/viewer/" + name, cache: cache)
            #expect(found["thumbnail::is-valid"] == "TRUE", "\(name): \(found)")
            let path = found["thumbnail::path"] ?? ""
            #expect(path.hasPrefix(cache + "/thumbnails/normal/") && FileManager.default.fileExists(atPath: path), "\(name): \(found)")
        }
        let again = run([
            "/usr/bin/env", "XDG_CACHE_HOME=\(cache)", DaemonProcess.binary, "thumbnails", "--mount", mountpoint, "--size", "normal",
        ])
        #expect(again.output.contains("0 made") && again.output.contains("2 already fresh"), "\(again.output)")
        #expect(run([DaemonProcess.binary, "thumbnails", "--mount", library]).status != 0)
        #expect(daemon.unmount() == 0)
    }
}
