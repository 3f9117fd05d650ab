import Foundation
import Glibc
import PhotoCatalog
import PhotoCore
import TestSupport
import Testing

/// The compatible representation through the kernel: every HEIC, HEIF and AVIF of the
/// corpus (and `corpus-extra`) copied into a library, mounted by the built binary, selected
/// into a compatible app under `strip` at the default quality (`web`), one under `keep` at
/// quality 1.0 (`best`) and an original app (`orig`). Each file libheif's `heif-convert`
/// decodes is listed in the compatible views as `.jpg` with the size `stat` gave it from
/// the first look; Pillow without a HEIF plugin opens it as JPEG; at 1.0 its pixels match
/// heif-convert's decode at >= 40 dB PSNR, at 0.8 at least as closely as heif-convert's own
/// quality-80 JPEG (less than 40 dB for detailed pictures); date and camera survive,
/// orientation is 1 (the pixels are upright) and under `strip` exiftool `-ee` finds no
/// location. It has its own inode (not the original's in `library/all` or `orig`), and
/// mmap of it shows the JPEG. A revoked JPEG disappears and a descriptor opened before the
/// revocation reads EACCES, as for originals. `photofs show` names the cached JPEG. The
/// select alone has the JPEGs made in the background, before any name is looked up.
@Suite(
    "compatible representation: corpus HEIF files through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct CorpusCompatibleViewTests {
    static let heifTypes: Set<String> = ["HEIC", "HEIF", "AVIF"]

    /// Whether `name` is how a compatible view names the asset at `path` with `id`: the file
    /// name with `.jpg` for its extension, or that with `~` and a prefix of the id.
    static func name(_ name: String, denotes path: String, id: String) -> Bool {
        let base = String(path.split(separator: "/").last ?? "")
        let stem = base[..<(base.lastIndex(of: ".") ?? base.endIndex)]
        if name == stem + ".jpg" { return true }
        guard name.hasPrefix(stem + "~"), name.hasSuffix(".jpg") else { return false }
        let suffix = name.dropFirst(stem.count + 1).dropLast(4)
        return suffix.count >= 4 && id.hasPrefix(suffix)
    }

    /// The bytes of `path` through a shared read-only mapping.
    static func mapped(_ path: String, size: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        guard let address = mmap(nil, size, PROT_READ, MAP_SHARED, fd, 0), address != MAP_FAILED else { return nil }
        defer { munmap(address, size) }
        return Array(UnsafeRawBufferPointer(start: address, count: size))
    }

    @Test func everyHEIFAssetIsAFaithfulJPEGInCompatibleViews() throws {
        let corpusFiles: [GPSCorpus.File]
        switch GPSCorpus.files() {
        case .success(let found): corpusFiles = found.filter { Self.heifTypes.contains($0.fileType ?? "") }
        case .failure(let missing): try Skip.because("skipping compatible view mount test: \(missing.reason)")
        }
        if let missing = LocationReader.exiftoolMissing { try Skip.because("skipping compatible view mount test: \(missing)") }
        guard HEIFReference.heifConvert != nil else {
            try Skip.because("skipping compatible view mount test: heif-convert (libheif-examples) is not installed")
        }
        guard let python = ExternalTools.pythonWithPIL else {
            try Skip.because("skipping compatible view mount test: python3 with Pillow (python3-pil) is not installed")
        }
        let base = temporaryDirectory("photofs-compatible-mount")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        let references = base + "/references"
        mkdir(references, 0o700)
        // What libheif itself decodes is what this test can judge: its decode as PNG, and
        // its own JPEG at quality 80 as the yardstick for the default quality.
        var judged: [String: (reference: String, theirs: String)] = [:]
        for (index, file) in corpusFiles.enumerated() {
            let target = library + "/" + file.path
            ByteFiles.mkdirs(Array((target as NSString).deletingLastPathComponent.utf8))
            #expect(run(["/bin/cp", file.source, target]).status == 0, "cannot copy \(file.path)")
            if let reference = try HEIFReference.convert(file.source, to: "\(references)/\(index).png"),
                let theirs = try HEIFReference.convert(file.source, to: "\(references)/\(index)-80.jpg", quality: 80)
            {
                judged[file.path] = (reference, theirs)
            }
        }
        try #require(judged.count >= 5, "libheif decodes only \(judged.count) corpus HEIF files")
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let catalogPath = base + "/catalog.sqlite"
        let cacheHome = base + "/cache"
        let daemon = try DaemonProcess(
            library: library, mountpoint: mountpoint, catalog: catalogPath, environment: ["XDG_CACHE_HOME": cacheHome])
        var unmounted = false
        defer { if !unmounted { _ = daemon.unmount() } }

        let catalog = try Catalog.open(at: catalogPath)
        var assets: [String: Asset] = [:]
        for file in corpusFiles {
            if let record = try catalog.asset(at: LibraryPath(file.path)) { assets[file.path] = record.asset }
        }
        daemon.forbiddenCoordinates = assets.values.compactMap(\.metadata.location).flatMap { [$0.latitude, $0.longitude] }
        for file in judged.keys { #expect(assets[file] != nil, "\(file) is not catalogued") }
        let ids = assets.values.map(\.id.rawValue).sorted()
        let setup = PickerFile.write(
            mountpoint,
            // Selected while web keeps locations (a select of a withheld file is refused).
            "app add web --location keep --representation compatible\n"
                + "app add best --location keep --representation compatible --quality 1.0\napp add orig --location keep\n"
                + ["web", "best", "orig"].map { "select \($0) \(ids.joined(separator: " "))\n" }.joined()
                + "app set web --location strip\n")
        try #require(setup.succeeded, "picker: \(setup)")
        // The select alone makes the JPEGs, in the background, before any name is looked up
        // (web and best: two per decodable file).
        let cacheFolder = cacheHome + "/photofs/compatible"
        var made = 0
        for _ in 0..<1200 where made < 2 * judged.count {
            usleep(100_000)
            made = ((try? FileManager.default.contentsOfDirectory(atPath: cacheFolder)) ?? []).filter { $0.hasSuffix(".jpg") }.count
        }
        #expect(made == 2 * judged.count, "\(made) JPEGs made in the background, \(2 * judged.count) expected")

        /// Each judged file's path in an app view, found by name.
        func listed(_ app: String) throws -> [String: String] {
            let names = try ByteFiles.list(Array((mountpoint + "/apps/" + app).utf8)).map { String(decoding: $0, as: UTF8.self) }
            var byPath: [String: String] = [:]
            for (file, asset) in assets {
                let matches = names.filter { Self.name($0, denotes: file, id: asset.id.rawValue) }
                if matches.count == 1 { byPath[file] = mountpoint + "/apps/" + app + "/" + matches[0] }
            }
            return byPath
        }
        let web = try listed("web")
        let best = try listed("best")
        let all = try ByteFiles.list(Array((mountpoint + "/library/all").utf8)).map { String(decoding: $0, as: UTF8.self) }
        let orig = try ByteFiles.list(Array((mountpoint + "/apps/orig").utf8)).map { String(decoding: $0, as: UTF8.self) }

        var pairs: [(jpeg: String, reference: String)] = []
        var checked: [String] = []
        for file in judged.keys.sorted() {
            guard let asset = assets[file], let webPath = web[file], let bestPath = best[file] else {
                Issue.record("\(file): not listed as .jpg in apps/web and apps/best")
                continue
            }
            for path in [webPath, bestPath] {
                // The first stat already has the JPEG's size; reads and mmap give those bytes.
                let size = Int(try ByteFiles.stat(Array(path.utf8)).st_size)
                let bytes = try ByteFiles.read(Array(path.utf8))
                #expect(bytes.count == size, "\(path): stat says \(size) bytes, read gives \(bytes.count)")
                #expect(bytes.starts(with: [0xFF, 0xD8, 0xFF]), "\(path) is not a JPEG")
                #expect(Self.mapped(path, size: size) == bytes, "\(path): mmap does not show the JPEG")
            }
            let jpegInode = try ByteFiles.stat(Array(webPath.utf8)).st_ino
            let originalName = String(file.split(separator: "/").last ?? "")
            for (view, names) in [("library/all", all), ("apps/orig", orig)] {
                for name in names where name == originalName || CorpusViewRedactionTests.name(name, denotes: file, id: asset.id.rawValue) {
                    let inode = try ByteFiles.stat(Array("\(mountpoint)/\(view)/\(name)".utf8)).st_ino
                    #expect(inode != jpegInode, "\(file): the JPEG shares its inode with \(view)/\(name)")
                }
            }
            let (reference, theirs) = judged[file]!
            pairs += [(webPath, reference), (bestPath, reference), (theirs, reference)]
            checked.append(file)
        }
        let compared = try HEIFReference.compare(pairs, python: python, in: base)
        let readings = LocationReader.exiftool(checked.map { web[$0]! })
        let sources = LocationReader.exiftool(checked.map { library + "/" + $0 })
        for (n, file) in checked.enumerated() {
            let results = compared[(3 * n)..<(3 * n + 3)].map { result -> HEIFReference.Comparison? in
                if case .success(let comparison) = result { return comparison }
                Issue.record("\(file): Pillow could not compare: \(result)")
                return nil
            }
            guard let ours = results[0], let sharp = results[1], let theirs = results[2] else { continue }
            #expect(ours.format == "JPEG" && sharp.format == "JPEG", "\(file): Pillow opens \(ours.format)/\(sharp.format)")
            #expect(sharp.psnr >= 40, "\(file): PSNR at quality 1.0 is \(sharp.psnr) dB")
            #expect(ours.psnr >= min(40, theirs.psnr - 0.5), "\(file): PSNR at 0.8 is \(ours.psnr) dB, heif-convert's \(theirs.psnr) dB")
            let tags = readings[web[file]!] ?? [:]
            let original = sources[library + "/" + file] ?? [:]
            for key in ["ExifIFD:DateTimeOriginal", "IFD0:Make", "IFD0:Model"] where original[key] != nil {
                #expect("\(tags[key] ?? "-")" == "\(original[key]!)", "\(file): \(key) did not survive")
            }
            #expect(tags["IFD0:Orientation"] == nil || "\(tags["IFD0:Orientation"]!)" == "1", "\(file): orientation is not 1")
            #expect(LocationReader.locationKeys(tags).isEmpty, "\(file): apps/web has \(LocationReader.locationKeys(tags))")
            print(
                "  \(file): \(String(format: "%.2f", ours.psnr)) dB at 0.8 (heif-convert's \(String(format: "%.2f", theirs.psnr))), \(String(format: "%.2f", sharp.psnr)) dB at 1.0"
            )
        }
        print("compatible views: \(checked.count) of \(corpusFiles.count) corpus HEIF files judged (libheif decodes \(judged.count))")
        #expect(checked.count == judged.count)

        // photofs show names the cached JPEG the mount serves.
        let shown = try #require(checked.first)
        let show = try ExternalTools.run(
            "/usr/bin/env", ["XDG_CACHE_HOME=\(cacheHome)", DaemonProcess.binary, "show", "--catalog", catalogPath, "--json", shown])
        let object = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        let entries = object?["compatible"] as? [[String: Any]] ?? []
        let webEntry = try #require(entries.first { $0["app"] as? String == "web" }, "photofs show: \(show.stdout) \(show.stderr)")
        #expect(webEntry["cached"] as? Bool == true)
        let cachedPath = try #require(webEntry["path"] as? String)
        #expect(cachedPath.hasPrefix(cacheHome + "/photofs/compatible/"))
        #expect(try ByteFiles.read(Array(cachedPath.utf8)) == ByteFiles.read(Array(web[shown]!.utf8)))
        #expect(entries.contains { $0["app"] as? String == "best" })
        #expect(!entries.contains { $0["app"] as? String == "orig" })

        // Revocation works as for originals: the name goes, a held descriptor reads EACCES.
        let revokedPath = web[shown]!
        let held = open(revokedPath, O_RDONLY)
        try #require(held >= 0)
        var heldOpen = true
        defer { if heldOpen { close(held) } }
        var byte: UInt8 = 0
        #expect(pread(held, &byte, 1, 0) == 1)
        let revoke = PickerFile.write(mountpoint, "deselect web \(assets[shown]!.id.rawValue)\n")
        try #require(revoke.succeeded, "picker: \(revoke)")
        #expect(ByteFiles.errnoOf { revokedPath.withCString { access($0, F_OK) } } == ENOENT)
        #expect(ByteFiles.errnoOf { Int32(pread(held, &byte, 1, 100)) } == EACCES)
        close(held)
        heldOpen = false

        #expect(daemon.unmount() == 0)
        unmounted = true
    }
}
