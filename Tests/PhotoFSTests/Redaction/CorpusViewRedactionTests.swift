import Foundation
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import PhotoHashing
import PhotoMetadata
import TestSupport
import Testing

/// The location model through the kernel: every file of the corpus (and of `corpus-extra`),
/// copied into a library, indexed and mounted by the built binary. Every media file is
/// served byte-identical in `library/all`; every asset's `has:location` agrees with
/// exiftool `-ee` (a file whose metadata cannot be read with certainty counts as located
/// and is withheld); every asset is selected into three apps (`--location strip`, `keep`,
/// `coarse`) and read back through `apps/<app>/`: no location tag and no GPS section in
/// `strip`, rounded coordinates in `coarse`, the original in `keep`. Two more apps hold
/// everything with `--metadata private` (`--location strip` and `keep`): none of
/// `IdentityReader`'s identity tags and no maker note left, no new exiftool complaint, the
/// same size, only the plan's bytes changed. Decoded pixels are compared in every view
/// (keep, strip, coarse and both private ones). exiftool and ImageMagick are the
/// independent judges; the plans come from the catalog the daemon wrote. Prints one line per file (names and verdicts,
/// never a coordinate). Skips, saying why, without the corpus, exiftool or FUSE.
@Suite(
    "redaction: corpus GPS files through real app views", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct CorpusViewRedactionTests {
    /// Formats whose decoded pixels must survive redaction unchanged.
    static let decodedFormats: Set<MediaFormat> = [.jpeg, .png, .webp, .heic, .heif, .avif]

    /// One corpus file in the mounted library, with what each view made of it.
    struct Row {
        let path: String
        var format = "-"
        var strip = "-"
        var keep = "-"
        var coarse = "-"
        var pixels = "-"
        var privateStrip = "-"
        var privateKeep = "-"
    }

    /// Whether `name` is how a view names the asset at `path` with `id`: its file name, or
    /// the file name with `~` and a prefix of the id before the extension.
    static func name(_ name: String, denotes path: String, id: String) -> Bool {
        let base = String(path.split(separator: "/").last ?? "")
        if name == base { return true }
        let dot = base.lastIndex(of: ".") ?? base.endIndex
        let stem = base[..<dot]
        let ext = base[dot...]
        guard name.hasPrefix(stem + "~"), name.hasSuffix(ext), name.count > base.count + 1 else { return false }
        let suffix = name.dropFirst(stem.count + 1).dropLast(ext.count)
        return suffix.count >= 4 && id.hasPrefix(suffix)
    }

    /// Checks the file a view serves at `path` against `original` and the plan's patches:
    /// the same size (read and stat), every byte outside the patches unchanged, every byte
    /// inside them the patch's. Returns the failures.
    static func compare(_ path: String, _ original: [UInt8], _ patches: [Patch]) throws -> [String] {
        let served = try ByteFiles.read(Array(path.utf8))
        let listed = Int(try ByteFiles.stat(Array(path.utf8)).st_size)
        guard served.count == original.count, listed == original.count else {
            return ["size \(served.count) read, \(listed) by stat; original \(original.count)"]
        }
        var expected = original
        PatchOverlay.apply(patches, to: &expected, at: 0)
        var outside = 0
        var inside = 0
        var patchIndex = 0
        for offset in 0..<served.count where served[offset] != expected[offset] {
            while patchIndex < patches.count && patches[patchIndex].end <= Int64(offset) { patchIndex += 1 }
            if patchIndex < patches.count && patches[patchIndex].offset <= Int64(offset) { inside += 1 } else { outside += 1 }
        }
        var failures: [String] = []
        if outside > 0 { failures.append("\(outside) byte(s) outside the plan's patches differ from the original") }
        if inside > 0 { failures.append("\(inside) byte(s) inside the patches differ from the plan") }
        return failures
    }

    /// What libexif, as a second independent reader, has against a strip view's EXIF:
    /// unreadable where the original read, a GPS directory or position left where the plan
    /// removed the EXIF GPS, other camera, date or orientation, more problems.
    /// A block the plan blanked whole (`blanked`: fail closed) reads as an empty TIFF structure.
    static func libexifComplaints(original: String, served: String, gpsRemoved: Bool, blanked: Bool) -> [String] {
        func facts(_ path: String) -> Result<EXIFFacts, EXIFReadError>? {
            guard let source = try? FileByteSource(path: path), let format = MediaSniffer.format(of: source),
                let block = ContainerWalker.layout(of: source, format: format).exifBlocks.first
            else { return nil }
            return Result { () throws(EXIFReadError) in try EXIFReader.read(source, block: block) }
        }
        guard case .success(let before) = facts(original) else { return [] }
        let read = facts(served)
        if blanked, case .failure(.empty) = read { return [] }
        guard case .success(let after) = read else { return ["libexif cannot read the strip view's EXIF"] }
        var complaints: [String] = []
        if gpsRemoved && after.hasGPSDirectory { complaints.append("libexif still finds a GPS directory") }
        if after.location != nil { complaints.append("libexif still reads a position") }
        if (after.make, after.model, after.captureDate, after.orientation) != (
            before.make, before.model, before.captureDate, before.orientation
        ) {
            complaints.append("libexif reads another camera, date or orientation")
        }
        if after.problems.count > before.problems.count {
            complaints.append(
                "libexif has new problems: \(after.problems.filter { !before.problems.contains($0) }.joined(separator: "; "))")
        }
        return complaints
    }

    /// The first bytes of a JPEG up to the middle of its first APP1 EXIF segment, or nil.
    static func cutInsideEXIF(_ bytes: [UInt8]) -> [UInt8]? {
        var position = 2
        while position + 10 <= bytes.count, bytes[position] == 0xFF {
            let length = Int(bytes[position + 2]) << 8 | Int(bytes[position + 3])
            if bytes[position + 1] == 0xE1, bytes[(position + 4)..<(position + 8)].elementsEqual(Array("Exif".utf8)) {
                return Array(bytes.prefix(position + 2 + length / 2))
            }
            position += 2 + length
        }
        return nil
    }

    /// exiftool FileTypes photofs does not catalogue (everything else in the manifest is media it serves).
    static let notServed: Set<String> = ["MKV"]
    /// A fuzzed file exiftool guesses is a MOV (a 64-bit `ftyp` size, unknown brands) that
    /// photofs refuses to guess at.
    static let refusedGuesses: Set<String> = ["metadata-extractor-images/crash-4c160f4263f8511f532bb22f967bfe166d5eae12.fuzzed"]

    @Test func corpusFilesThroughLibraryAndStripKeepAndCoarseViews() throws {
        var files: [String]
        var sources: [String: String] = [:]
        var corpusFiles: [GPSCorpus.File] = []
        switch GPSCorpus.files() {
        case .success(let found):
            corpusFiles = found
            files = found.map(\.path)
            for file in found { sources[file.path] = file.source }
        case .failure(let missing):
            try Skip.because("skipping corpus redaction mount test: \(missing.reason)")
        }
        if let missing = LocationReader.exiftoolMissing {
            try Skip.because("skipping corpus redaction mount test: \(missing)")
        }
        let anyGPS = corpusFiles.contains { $0.hasGPS }
        try #require(anyGPS, "manifest.json marks no file with GPS")

        let base = temporaryDirectory("photofs-redaction-mount")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        for file in files {
            let target = library + "/" + file
            ByteFiles.mkdirs(Array((target as NSString).deletingLastPathComponent.utf8))
            #expect(run(["/bin/cp", sources[file] ?? "", target]).status == 0, "cannot copy \(file)")
        }
        // A control for fail-closed: a GPS JPEG cut off inside its EXIF segment, which the
        // planner cannot walk to its end and must withhold from the redacting views.
        let control = "control/cut-in-exif.jpg"
        if let donor = files.first(where: { $0.lowercased().hasSuffix(".jpg") }),
            let cut = Self.cutInsideEXIF(try ByteFiles.read(Array((library + "/" + donor).utf8)))
        {
            ByteFiles.mkdirs(Array((library + "/control").utf8))
            try ByteFiles.write(Array((library + "/" + control).utf8), cut)
            files.append(control)
        }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let catalogPath = base + "/catalog.sqlite"
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalogPath)
        var unmounted = false
        defer { if !unmounted { daemon.unmount() } }

        // The plans the daemon serves, read from its catalog in-process.
        let catalog = try Catalog.open(at: catalogPath)
        var assets: [String: Asset] = [:]
        // The plans the catalog stores for each asset (the views keep only whether they withhold).
        var plans: [String: RedactionPlans] = [:]
        var notAssets: [String: String] = [:]
        for file in files {
            if let record = try catalog.asset(at: LibraryPath(file)) {
                assets[file] = record.asset
                plans[file] = record.redaction
            } else {
                notAssets[file] = (try catalog.failure(at: LibraryPath(file))).map { "\($0.reason)" } ?? "not catalogued"
            }
        }
        // The daemon's log is checked for these once it exits (no coordinate may appear).
        daemon.forbiddenCoordinates = assets.values.compactMap(\.metadata.location).flatMap { [$0.latitude, $0.longitude] }
        print("corpus redaction mount: \(files.count) files, \(assets.count) catalogued as assets")
        for (file, reason) in notAssets.sorted(by: { $0.key < $1.key }) { print("  not an asset, in no view: \(file) (\(reason))") }
        // Every media file exiftool recognises is an asset.
        for file in corpusFiles where file.fileType != nil && !Self.notServed.contains(file.fileType ?? "") {
            if Self.refusedGuesses.contains(file.path) { continue }
            #expect(assets[file.path] != nil, "\(file.path) (\(file.fileType ?? "")) is not catalogued")
        }
        // ... and served byte-identical in library/all.
        let all = try ByteFiles.list(Array((mountpoint + "/library/all").utf8)).map { String(decoding: $0, as: UTF8.self) }
        var identical = 0
        for (file, asset) in assets where file != control {
            let names = all.filter { Self.name($0, denotes: file, id: asset.id.rawValue) }
            guard names.count == 1 else {
                Issue.record("library/all names \(file) \(names.count) times")
                continue
            }
            let served = try ByteFiles.read(Array((mountpoint + "/library/all/" + names[0]).utf8))
            let same = SHA256.hash(served) == SHA256.hash(try ByteFiles.read(Array((library + "/" + file).utf8)))
            #expect(same, "\(file): library/all is not byte-identical to the original")
            if same { identical += 1 }
        }
        print("  library/all: \(identical) of \(assets.count - (assets[control] == nil ? 0 : 1)) assets byte-identical")
        let hasLocation = try Filter("has:location")

        let ids = files.compactMap { assets[$0]?.id.rawValue }
        let setup = PickerFile.write(
            mountpoint,
            // Every app selects while it keeps everything, then gets its policies: a select
            // of what an app could not be served is refused, and the withheld files are the point.
            ["strip", "keep", "coarse", "private", "privatekeep"].map { "app add \($0) --location keep\n" }.joined()
                + ["strip", "keep", "coarse", "private", "privatekeep"].map { "select \($0) \(ids.joined(separator: " "))\n" }.joined()
                + "app set strip --location strip\napp set coarse --location coarse\n"
                + "app set private --location strip --metadata private\napp set privatekeep --metadata private\n")
        try #require(setup.succeeded, "picker: \(setup)")

        // What each view lists, by library path.
        func listed(_ app: String) throws -> [String: String] {
            let names = try ByteFiles.list(Array((mountpoint + "/apps/" + app).utf8)).map { String(decoding: $0, as: UTF8.self) }
            var byPath: [String: String] = [:]
            for name in names {
                let owners = assets.filter { Self.name(name, denotes: $0.key, id: $0.value.id.rawValue) }
                #expect(owners.count == 1, "apps/\(app)/\(name) denotes \(owners.count) assets")
                if let owner = owners.first { byPath[owner.key] = mountpoint + "/apps/" + app + "/" + name }
            }
            #expect(names.count == byPath.count, "apps/\(app) lists names that are no asset")
            return byPath
        }
        let stripView = try listed("strip")
        let keepView = try listed("keep")
        let coarseView = try listed("coarse")
        let privateViews: [(app: String, location: LocationPolicy, view: [String: String])] = [
            ("private", .strip, try listed("private")), ("privatekeep", .keep, try listed("privatekeep")),
        ]

        // Fail closed: a withheld asset is not listed and does not stat, under its own name.
        var withheld: [String: String] = [:]
        for file in assets.keys {
            let name = String(file.split(separator: "/").last ?? "")
            for (app, view, plan) in [("strip", stripView, plans[file]!.strip), ("coarse", coarseView, plans[file]!.coarse)] {
                if case .withheld(let reason) = plan {
                    if app == "strip" { withheld[file] = reason }
                    #expect(view[file] == nil, "apps/\(app) lists \(file), whose plan is withheld")
                    #expect(statErrno(mountpoint + "/apps/\(app)/" + name) == ENOENT, "apps/\(app)/\(name) is withheld but stats")
                } else {
                    #expect(view[file] != nil, "apps/\(app) does not list \(file)")
                }
            }
            #expect(keepView[file] != nil, "apps/keep does not list \(file)")
            for (app, location, view) in privateViews {
                if plans[file]!.isWithheld(for: location, metadata: .private) {
                    #expect(view[file] == nil, "apps/\(app) lists \(file), whose private plan is withheld")
                } else {
                    #expect(view[file] != nil, "apps/\(app) does not list \(file)")
                }
            }
        }
        for (file, reason) in withheld.sorted(by: { $0.key < $1.key }) { print("  withheld from strip (not listed): \(file): \(reason)") }
        #expect(withheld[control] != nil, "the control cut inside its EXIF segment is not withheld from apps/strip")

        // One exiftool run over the originals and both redacting views.
        let originals = files.filter { assets[$0] != nil }.map { library + "/" + $0 }
        let privatePaths = privateViews.flatMap { Array($0.view.values) }
        let readings = LocationReader.exiftool(originals + Array(stripView.values) + Array(coarseView.values) + privatePaths)
        let identityReadings = IdentityReader.exiftool(originals + privatePaths)
        let complaints = IdentityReader.complaints(originals + privatePaths)

        var rows: [Row] = []
        var counts = (strip: 0, keep: 0, coarse: 0, pixels: 0, privateViews: 0, identityBefore: 0)
        var decodeSkipped: [String] = []
        for file in files.sorted() {
            var row = Row(path: file)
            defer { rows.append(row) }
            guard let asset = assets[file] else {
                row.strip = "not an asset"
                continue
            }
            row.format = asset.metadata.format.rawValue
            let originalPath = library + "/" + file
            let original = try ByteFiles.read(Array(originalPath.utf8))
            // Decoded pixels of the original, once; nil when ImageMagick cannot decode it.
            var originalPixels: Result<String, LocationReader.DecodeFailure>?
            func pixelFailure(_ path: String, _ view: String) -> String? {
                guard Self.decodedFormats.contains(asset.metadata.format) else { return nil }
                if originalPixels == nil { originalPixels = LocationReader.pixelHash(originalPath) }
                guard case .success(let a) = originalPixels else { return nil }
                switch LocationReader.pixelHash(path) {
                case .failure(let why): return "the \(view) view does not decode: \(why.reason)"
                case .success(let b): return a == b ? nil : "decoded pixels of the \(view) view differ"
                }
            }
            guard let before = readings[originalPath] else {
                Issue.record("\(file): exiftool could not read the original")
                continue
            }
            // has:location is the location model's finding and must agree with exiftool -ee;
            // metadata the model cannot read counts as a location (and is withheld).
            let exiftoolFinds = !LocationReader.locationKeys(before).isEmpty
            let filterSays = hasLocation.matches(asset)
            if asset.metadata.locationSources.contains(.unverified) {
                #expect(filterSays, "\(file): unverified metadata must count as a location")
            } else {
                #expect(
                    filterSays == exiftoolFinds,
                    "\(file): has:location is \(filterSays) (\(asset.metadata.locationSources.names)), exiftool -ee \(exiftoolFinds ? "finds" : "finds no") location (\(LocationReader.locationKeys(before).joined(separator: ",")))"
                )
            }

            // keep: the original bytes.
            if let path = keepView[file] {
                let served = try ByteFiles.read(Array(path.utf8))
                let listed = Int(try ByteFiles.stat(Array(path.utf8)).st_size)
                let same = SHA256.hash(served) == SHA256.hash(original) && listed == original.count
                #expect(same, "\(file): apps/keep is not byte-identical to the original")
                row.keep = same ? "identical" : "DIFFERS"
                if let failure = pixelFailure(path, "keep") {
                    Issue.record("\(file) keep: \(failure)")
                    row.keep += "; " + failure
                }
                counts.keep += 1
            }

            // private: no identity tag, no new complaint, same size, only the plan's bytes, same pixels.
            if !(identityReadings[originalPath].map(IdentityReader.identityKeys) ?? []).isEmpty { counts.identityBefore += 1 }
            for (app, location, view) in privateViews {
                guard let path = view[file], case .patches(let patches) = plans[file]!.plan(for: location, metadata: .private) else {
                    if app == "private" { row.privateStrip = "withheld" } else { row.privateKeep = "withheld" }
                    continue
                }
                var failures = try Self.compare(path, original, patches)
                if let after = identityReadings[path] {
                    let left = IdentityReader.identityKeys(after)
                    if !left.isEmpty { failures.append("identity tags left: \(left.joined(separator: ", "))") }
                } else {
                    failures.append("exiftool cannot read the \(app) view")
                }
                let newComplaints = (complaints[path] ?? []).subtracting(complaints[originalPath] ?? [])
                if !newComplaints.isEmpty { failures.append("new exiftool \(newComplaints.sorted().joined(separator: "; "))") }
                if let after = readings[path] {
                    if location == .strip {
                        let left = LocationReader.locationKeys(after)
                        if !left.isEmpty { failures.append("location left: \(left.joined(separator: ", "))") }
                    }
                }
                if let failure = pixelFailure(path, app) { failures.append(failure) }
                for failure in failures { Issue.record("\(file) \(app): \(failure)") }
                let verdict = failures.isEmpty ? "ok (\(patches.count) patches)" : failures.joined(separator: "; ")
                if app == "private" { row.privateStrip = verdict } else { row.privateKeep = verdict }
                counts.privateViews += 1
            }

            // strip: no location left, no new complaint, only the plan's bytes changed, same pixels.
            if let path = stripView[file], case .patches(let patches) = plans[file]!.strip {
                var failures = try Self.compare(path, original, patches)
                if let after = readings[path] {
                    let left = LocationReader.locationKeys(after)
                    if !left.isEmpty { failures.append("location left: \(left.joined(separator: ", "))") }
                    // A stripped file does not say it ever had a location: no GPS section,
                    // unless the original had one that held no location (left as it was).
                    let gps = after.keys.filter { $0.hasPrefix("GPS:") }
                    if !gps.isEmpty, exiftoolFinds || Set(gps) != Set(before.keys.filter { $0.hasPrefix("GPS:") }) {
                        failures.append("GPS section left: \(gps.sorted().joined(separator: ", "))")
                    }
                    failures += LocationReader.newComplaints(before: before, after: after)
                    let iptc = LocationReader.iptcLocationKeys(after)
                    if !iptc.isEmpty { failures.append("IPTC place names left: \(iptc.joined(separator: ", "))") }
                } else {
                    failures.append("exiftool cannot read the strip view")
                }
                if asset.metadata.hasExif {
                    failures += Self.libexifComplaints(
                        original: originalPath, served: path, gpsRemoved: asset.metadata.locationSources.contains(.exifGPS),
                        blanked: asset.metadata.locationSources.contains(.unverified))
                }
                if Self.decodedFormats.contains(asset.metadata.format) {
                    switch (LocationReader.pixelHash(originalPath), LocationReader.pixelHash(path)) {
                    case (.failure(let why), _):
                        row.pixels = "skipped"
                        decodeSkipped.append("\(file): ImageMagick cannot decode the original (\(why.reason))")
                    case (.success, .failure(let why)):
                        failures.append("the strip view does not decode: \(why.reason)")
                    case (.success(let a), .success(let b)):
                        row.pixels = a == b ? "same" : "DIFFER"
                        if a != b { failures.append("decoded pixels differ") }
                        counts.pixels += 1
                    }
                } else {
                    row.pixels = "n/a (\(asset.metadata.format.kind == .video ? "video" : "not decoded"))"
                }
                for failure in failures { Issue.record("\(file) strip: \(failure)") }
                row.strip = failures.isEmpty ? "ok (\(patches.count) patches)" : failures.joined(separator: "; ")
                counts.strip += 1
            } else if withheld[file] != nil {
                row.strip = "withheld"
            }

            // coarse: coordinates on the 0.01° grid within 0.005° of the original, no altitude.
            if let path = coarseView[file], case .patches(let patches) = plans[file]!.coarse {
                var failures = try Self.compare(path, original, patches)
                var rounded = 0
                if let after = readings[path] {
                    failures += LocationReader.newComplaints(before: before, after: after)
                    let iptc = LocationReader.iptcLocationKeys(after)
                    if !iptc.isEmpty { failures.append("IPTC place names kept: \(iptc.joined(separator: ", "))") }
                    for name in ["GPSLatitude", "GPSLongitude"] {
                        guard let a = LocationReader.coordinate(before, name) else { continue }
                        guard let b = LocationReader.coordinate(after, name) else {
                            failures.append("\(name) dropped instead of rounded")
                            continue
                        }
                        rounded += 1
                        if abs(a - b) > 0.005 + 1e-9 { failures.append("\(name) moved more than 0.005°") }
                        if !LocationReader.onHundredthGrid(b) { failures.append("\(name) finer than 0.01°") }
                    }
                    // What is left must be coordinates on the grid: no altitude, no other GPS field, no place.
                    let allowed = ["GPSLatitude", "GPSLongitude", "GPSLatitudeRef", "GPSLongitudeRef", "GPSPosition", "GPSCoordinates"]
                    for key in LocationReader.locationKeys(after) {
                        let name = String(key.split(separator: ":").last ?? "")
                        guard allowed.contains(name) else {
                            failures.append("\(key) kept")
                            continue
                        }
                        let numbers = "\(after[key] ?? "")".split(whereSeparator: { !"0123456789.-+".contains($0) }).compactMap {
                            Double($0)
                        }
                        if numbers.contains(where: { !LocationReader.onHundredthGrid($0) }) { failures.append("\(key) finer than 0.01°") }
                    }
                } else {
                    failures.append("exiftool cannot read the coarse view")
                }
                if let failure = pixelFailure(path, "coarse") { failures.append(failure) }
                for failure in failures { Issue.record("\(file) coarse: \(failure)") }
                row.coarse =
                    failures.isEmpty
                    ? (rounded > 0 ? "ok (rounded)" : "ok (no coordinates in the original)") : failures.joined(separator: "; ")
                counts.coarse += 1
            } else if case .withheld = plans[file]!.coarse {
                row.coarse = "withheld"
            }
        }

        print("\nfile | format | strip | keep | coarse | pixels | private | private+keep")
        for row in rows {
            print(
                "\(row.path) | \(row.format) | \(row.strip) | \(row.keep) | \(row.coarse) | \(row.pixels) | \(row.privateStrip) | \(row.privateKeep)"
            )
        }
        print(
            "\nchecked: strip \(counts.strip), keep \(counts.keep), coarse \(counts.coarse), decoded pixels compared \(counts.pixels); "
                + "withheld from strip \(withheld.count); not assets \(notAssets.count); private views \(counts.privateViews) "
                + "(originals with identity tags: \(counts.identityBefore))")
        for skipped in decodeSkipped { print("  pixels not compared: \(skipped)") }

        #expect(daemon.unmount() == 0, "daemon log: \(daemon.log)")
        unmounted = true
    }
}
