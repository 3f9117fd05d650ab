import Foundation
import TestSupport
import Testing

@testable import MediaFormats

/// For every corpus file (the acceptance names those that exiftool says hold GPS,
/// `hasGPS` or `hasGPSIFD` in `manifest.json`; the others are checked the same way, but
/// a malformed one may be withheld instead of patched): plan the redaction, write the patched copies (strip and coarse) to a
/// temporary folder, and check them with exiftool and ImageMagick as independent readers:
/// no location left (strip), coordinates rounded to 0.01° (coarse), no new exiftool error or
/// warning, same size, bytes outside the patches unchanged, decoded pixels unchanged.
/// Prints one table line per file. Skips (printing why) when the corpus or exiftool is absent.
@Suite struct RedactionCorpusTests {
    struct Case {
        /// The corpus folder the file is in (`corpus` or `corpus-extra`).
        var base: String
        var path: String
        var hasGPS: Bool
        var hasGPSIFD: Bool
        /// The files the acceptance names; the others are checked too, but may be withheld.
        var mustBeServed: Bool { hasGPS || hasGPSIFD }
    }

    /// The files of the corpus and of its sibling `corpus-extra` (when present), each
    /// with the flags of its folder's `manifest.json`.
    static func cases() -> [Case]? {
        guard let dir = Corpus.directory else { return nil }
        var cases: [Case] = []
        for base in [dir, dir + "-extra"] {
            guard let data = FileManager.default.contents(atPath: base + "/manifest.json"),
                let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            else { continue }
            cases += list.compactMap { item in
                guard let path = item["path"] as? String else { return nil }
                let hasGPS = item["hasGPS"] as? Bool ?? false
                return Case(base: base, path: path, hasGPS: hasGPS, hasGPSIFD: item["hasGPSIFD"] as? Bool ?? false)
            }
        }
        return cases
    }

    /// Runs a command, returning its standard output (nil when it could not start or failed).
    static func run(_ arguments: [String]) -> Data? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? data : nil
    }

    /// exiftool's reading of each file, keyed by path.
    static func exiftool(_ paths: [String]) -> [String: [String: Any]] {
        guard !paths.isEmpty, let data = run(["exiftool", "-ee", "-n", "-json", "-a", "-G1"] + paths),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return [:] }
        var result: [String: [String: Any]] = [:]
        for item in list {
            if let source = item["SourceFile"] as? String { result[source] = item }
        }
        return result
    }

    /// Location tags, as `Group:Tag` keys of exiftool's output: what `has:location` must
    /// agree with and what must not survive `strip`. A coordinate, altitude or position in
    /// any group; any GPS IFD or FLIR GPS field but the version; GeoTIFF georeferencing;
    /// XMP GPS fields, place names (City, State, Country, CountryCode, Location,
    /// Sublocation, LocationCreated/Shown... in any namespace) and DJI position, altitude
    /// and heading; IPTC place datasets; QuickTime location keys and atoms. A creator's or
    /// licensor's address and a maker note's home-town city are identity, not location.
    static func locationKeys(_ tags: [String: Any]) -> [String] {
        let coordinateNames = [
            "GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSPosition", "GPSCoordinates", "GPSDestLatitude", "GPSDestLongitude",
        ]
        let placeNames = ["City", "State", "Country", "CountryCode", "Location", "Sublocation", "WorldRegion"]
        let iptcPlaceNames = [
            "City", "Sub-location", "Province-State", "Country-PrimaryLocationCode", "Country-PrimaryLocationName", "ContentLocationCode",
            "ContentLocationName",
        ]
        let geoTIFFNames = [
            "ModelTiePoint", "ModelPixelScale", "ModelTransform", "GeoTiffDirectory", "GeoTiffDoubleParams", "GeoTiffAsciiParams",
        ]
        return tags.keys.filter { key in
            let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return false }
            let (group, name) = (parts[0], parts[1])
            if name == "GPSVersionID" { return false }
            if coordinateNames.contains(where: { name.hasPrefix($0) }) { return true }
            if group == "GPS" || group == "GeoTiff" || geoTIFFNames.contains(name) { return true }
            if group == "FLIR", name.hasPrefix("GPS") { return true }
            if group.hasPrefix("XMP") {
                if name.hasPrefix("Creator") || name.hasPrefix("Licensor") { return false }
                if name.hasPrefix("GPS") || name.hasPrefix("Location") { return true }
                if placeNames.contains(where: { name.hasPrefix($0) || name.hasSuffix($0) }) { return true }
                if group == "XMP-drone-dji", ["Gps", "Latitude", "Longitude", "Altitude", "Yaw"].contains(where: name.contains) {
                    return true
                }
                return false
            }
            if group.hasPrefix("IPTC"), iptcPlaceNames.contains(name) { return true }
            if ["QuickTime", "UserData", "Keys", "ItemList"].contains(group), name.contains("Location") || name.contains("GPS") {
                return true
            }
            return false
        }.sorted()
    }

    /// The decoded pixels (RGBA, 8 bit) as ImageMagick reads them, or nil when it cannot.
    static func pixels(_ path: String) -> Data? {
        run(["convert", path + "[0]", "-depth", "8", "rgba:-"])
    }

    static let tempRoot = FileManager.default.temporaryDirectory.appendingPathComponent("photofs-redaction-\(getpid())")

    @Test func corpusFilesLoseTheirLocation() throws {
        guard let cases = Self.cases() else {
            try Skip.because("RedactionCorpusTests: corpus not found (set PHOTOFS_CORPUS)")
        }
        guard Self.run(["exiftool", "-ver"]) != nil else {
            try Skip.because("RedactionCorpusTests: exiftool not installed; skipped")
        }
        let fm = FileManager.default
        try fm.createDirectory(at: Self.tempRoot.appendingPathComponent("strip"), withIntermediateDirectories: true)
        try fm.createDirectory(at: Self.tempRoot.appendingPathComponent("coarse"), withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: Self.tempRoot) }

        struct Row {
            var path: String
            var format = "?"
            var strip = "-"
            var coarse = "-"
            var patches = 0
            var patchedBytes = 0
            var original = ""
            var stripped = ""
            var coarsened = ""
            var skippedReason: String?
            var hasGPS = false
            var notes = ""
            /// What the location model found.
            var found: LocationSources = []
        }
        var rows: [Row] = []
        for (index, item) in cases.enumerated() {
            var row = Row(path: item.path)
            let original = item.base + "/" + item.path
            guard let source = FileByteSource(path: original), let bytes = FileByteSource.contents(of: original) else {
                Issue.record("\(item.path): cannot read")
                continue
            }
            guard let format = MediaSniffer.format(of: source) else {
                // Not a format photofs serves (BMP, AVI, BigTIFF, ...): never in a view.
                if item.mustBeServed { Issue.record("\(item.path): not recognised as media") }
                row.skippedReason = "not served (format not recognised)"
                rows.append(row)
                continue
            }
            row.format = format.rawValue
            let layout = ContainerWalker.layout(of: source, format: format)
            let report = RedactionPlanner.report(layout: layout, source: source)
            let plans = report.plans
            row.found = report.found
            row.hasGPS = item.hasGPS
            row.notes =
                report.notes.contains { $0.hasSuffix("block blanked") || $0.hasSuffix("packet blanked") }
                ? "fail-closed: "
                    + report.notes.filter { $0.hasSuffix("block blanked") || $0.hasSuffix("packet blanked") }.joined(separator: "; ") : ""
            row.original = original
            for (policy, plan) in [("strip", plans.strip), ("coarse", plans.coarse)] {
                guard case .patches(let patches) = plan else {
                    if item.mustBeServed {
                        Issue.record("\(item.path): \(policy) plan withheld: \(plan)")
                    } else if policy == "strip" {
                        row.skippedReason = "withheld (\(plan))"
                    }
                    continue
                }
                var patched = bytes
                plan.apply(to: &patched, at: 0)
                let ext = (item.path as NSString).pathExtension
                let out = Self.tempRoot.appendingPathComponent(policy).appendingPathComponent("\(index).\(ext)").path
                try Data(patched).write(to: URL(fileURLWithPath: out))
                if policy == "strip" {
                    row.stripped = out
                    row.patches = patches.count
                    row.patchedBytes = patches.reduce(0) { $0 + $1.bytes.count }
                } else {
                    row.coarsened = out
                }
                // Same size; every byte outside the patches identical.
                let written = FileByteSource.contents(of: out) ?? []
                #expect(written.count == bytes.count, "\(item.path): size changed")
                var inPatch = [Bool](repeating: false, count: bytes.count)
                for patch in patches { for i in Int(patch.offset)..<Int(patch.end) { inPatch[i] = true } }
                let changedOutside = zip(bytes, written).enumerated().contains { $0.element.0 != $0.element.1 && !inPatch[$0.offset] }
                #expect(!changedOutside, "\(item.path): \(policy) changed bytes outside its patches")
            }
            rows.append(row)
        }
        print("RedactionCorpusTests: \(rows.count) files, \(cases.filter(\.mustBeServed).count) marked hasGPS/hasGPSIFD")

        let readings = Self.exiftool(
            rows.map(\.original).filter { !$0.isEmpty } + rows.map(\.stripped).filter { !$0.isEmpty }
                + rows.map(\.coarsened).filter { !$0.isEmpty })
        print("\nfile | format | patches (bytes) | strip | coarse")
        for var row in rows {
            defer {
                print("\(row.path) | \(row.format) | \(row.patches) (\(row.patchedBytes)) | \(row.strip) | \(row.coarse) \(row.notes)")
            }
            if let reason = row.skippedReason {
                row.strip = reason
                continue
            }
            guard let before = readings[row.original] else {
                Issue.record("\(row.path): exiftool could not read the original")
                continue
            }
            var failures: [String] = []
            // The checker must see the location in the original, or its silence proves nothing.
            if row.hasGPS && Self.locationKeys(before).isEmpty { failures.append("checker finds no location in the original") }
            // has:location is the model's finding; it must agree with exiftool -ee, except that
            // metadata the model cannot read counts as a location (withheld, fail closed).
            let exiftoolFinds = !Self.locationKeys(before).isEmpty
            if !row.found.contains(.unverified), exiftoolFinds != !row.found.isEmpty {
                failures.append(
                    "has:location \(!row.found.isEmpty) (\(row.found.names)) but exiftool \(exiftoolFinds ? "finds" : "finds no") location"
                        + (exiftoolFinds ? " (\(Self.locationKeys(before).joined(separator: ",")))" : ""))
            }
            if let after = readings[row.stripped] {
                let left = Self.locationKeys(after)
                if !left.isEmpty { failures.append("location left: \(left.joined(separator: ","))") }
                // No GPS section at all, unless the original had one without a location.
                let gpsKeys = after.keys.filter { $0.hasPrefix("GPS:") }
                let originalGPS = before.keys.filter { $0.hasPrefix("GPS:") }
                if !gpsKeys.isEmpty, Set(gpsKeys) != Set(originalGPS) || exiftoolFinds {
                    failures.append("GPS section left: \(gpsKeys.sorted().joined(separator: ","))")
                }
                failures += Self.newComplaints(before: before, after: after)
                if ["jpeg", "png", "webp", "heic", "heif", "avif"].contains(row.format) {
                    let a = Self.pixels(row.original)
                    let b = Self.pixels(row.stripped)
                    if a == nil {
                        if row.hasGPS { failures.append("original not decodable") }
                    } else if a != b {
                        failures.append("pixels differ")
                    }
                }
            } else if !row.stripped.isEmpty {
                failures.append("exiftool cannot read the stripped copy")
            }
            row.strip = failures.isEmpty ? "ok" : failures.joined(separator: "; ")
            for failure in failures { Issue.record("\(row.path) strip: \(failure)") }

            var coarseFailures: [String] = []
            if let after = readings[row.coarsened] {
                coarseFailures += Self.newComplaints(before: before, after: after)
                // exiftool builds Composite coordinates from EXIF and QuickTime; XMP-only files have
                // just XMP-exif:GPSLatitude/GPSLongitude (signed under -n).
                func coordinate(_ tags: [String: Any], _ name: String) -> Double? {
                    (tags["Composite:\(name)"] as? Double) ?? (tags["XMP-exif:\(name)"] as? Double)
                }
                let originalLat = coordinate(before, "GPSLatitude")
                let originalLon = coordinate(before, "GPSLongitude")
                let lat = coordinate(after, "GPSLatitude")
                let lon = coordinate(after, "GPSLongitude")
                for (name, a, b) in [("latitude", originalLat, lat), ("longitude", originalLon, lon)] {
                    guard let a else { continue }
                    guard let b else {
                        // XMP and video coordinates are blanked under coarse (documented).
                        continue
                    }
                    if abs(a - b) > 0.005 + 1e-9 { coarseFailures.append("\(name) moved more than 0.005°") }
                    if abs(b * 100 - (b * 100).rounded()) > 1e-6 { coarseFailures.append("\(name) finer than 0.01°") }
                }
                // What remains must be coordinates on the 0.01° grid: no altitude, no XMP place.
                for key in Self.locationKeys(after) {
                    let xmpCoordinate = key == "XMP-exif:GPSLatitude" || key == "XMP-exif:GPSLongitude"
                    if key.contains("GPSAltitude") || key.contains("GPSDest") || (key.hasPrefix("XMP") && !xmpCoordinate)
                        || key.hasPrefix("IPTC:")
                    {
                        coarseFailures.append("\(key) kept")
                        continue
                    }
                    let numbers = "\(after[key] ?? "")".split(whereSeparator: { !"0123456789.-+".contains($0) }).compactMap { Double($0) }
                    if numbers.contains(where: { abs($0 * 100 - ($0 * 100).rounded()) > 1e-6 }) {
                        coarseFailures.append("\(key) finer than 0.01°")
                    }
                }
                row.coarse = coarseFailures.isEmpty ? (lat == nil ? "ok (no coordinates)" : "ok") : coarseFailures.joined(separator: "; ")
            }
            for failure in coarseFailures { Issue.record("\(row.path) coarse: \(failure)") }
        }
    }

    /// exiftool errors and warnings in `after` that `before` did not have.
    static func newComplaints(before: [String: Any], after: [String: Any]) -> [String] {
        var result: [String] = []
        for key in ["ExifTool:Error", "ExifTool:Warning"] {
            if let message = after[key] as? String, message != before[key] as? String {
                result.append("new \(key): \(message)")
            }
        }
        return result
    }

    /// Location the corpus lacks in some formats, written by exiftool into copies of corpus
    /// files: the `mdta` ISO 6709 key of iPhone videos, EXIF GPS, XMP and IPTC in a TIFF,
    /// EXIF (`eXIf`) and XMP (`iTXt`) in a PNG, whose CRCs must be rewritten, and every
    /// IPTC place name in a JPEG's APP13 (with exiftool's IPTC digest).
    static let written: [(file: String, arguments: [String], coarseKey: String, coarseValue: String)] = [
        (
            "metadata-extractor-images/with-gps.mp4", ["-Keys:GPSCoordinates=37.4217, -122.0834, 12.5"], "Keys:GPSCoordinates",
            "37.42 -122.08"
        ),
        (
            "exif-samples/Arbitro.tiff",
            [
                "-GPSLatitude=48.858222", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-GPSAltitude=35",
                "-XMP-exif:GPSLatitude=48.858222", "-XMP-exif:GPSLongitude=2.2945", "-XMP-photoshop:City=Paris",
                "-IPTC:City=Paris", "-IPTC:Country-PrimaryLocationName=France",
            ],
            "Composite:GPSLatitude", "48.86"
        ),
        (
            // exiftool writes IPTC into APP13 with an IPTC digest, which must be rewritten too.
            "exif-samples/Canon_40D.jpg",
            [
                "-GPSLatitude=48.858222", "-GPSLatitudeRef=N", "-GPSLongitude=2.2945", "-GPSLongitudeRef=E", "-IPTC:City=Paris",
                "-IPTC:Sub-location=Champ de Mars", "-IPTC:Province-State=Ile-de-France", "-IPTC:Country-PrimaryLocationCode=FRA",
                "-IPTC:Country-PrimaryLocationName=France", "-IPTC:ContentLocationName=Tower", "-IPTC:ObjectName=Kept",
            ],
            "Composite:GPSLatitude", "48.86"
        ),
        (
            "exiftool/PNG.png",
            [
                "-EXIF:GPSLatitude=48.858222", "-EXIF:GPSLatitudeRef=N", "-EXIF:GPSLongitude=2.2945", "-EXIF:GPSLongitudeRef=E",
                "-XMP-exif:GPSAltitude=35", "-XMP-photoshop:Country=France",
            ],
            "Composite:GPSLongitude", "2.29"
        ),
    ]

    @Test(arguments: 0..<written.count)
    func locationWrittenByExiftool(index: Int) throws {
        let item = Self.written[index]
        guard let dir = Corpus.directory, Self.run(["exiftool", "-ver"]) != nil,
            FileManager.default.fileExists(atPath: dir + "/" + item.file)
        else {
            try Skip.because("RedactionCorpusTests: \(item.file) or exiftool absent; skipped")
        }
        // Its own folder: the other test removes `tempRoot` when it ends, and tests run in parallel.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photofs-redaction-written-\(getpid())-\(index)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ext = (item.file as NSString).pathExtension
        let path = folder.appendingPathComponent("written.\(ext)").path
        try FileManager.default.copyItem(atPath: dir + "/" + item.file, toPath: path)
        _ = Self.run(["exiftool", "-q", "-overwrite_original"] + item.arguments + [path])
        let original = try #require(FileByteSource.contents(of: path))
        let before = try #require(Self.exiftool([path])[path])
        try #require(!Self.locationKeys(before).isEmpty, "exiftool did not write the location")

        let source = MemoryByteSource(original)
        let layout = ContainerWalker.layout(of: source, format: try #require(MediaSniffer.format(of: source)))
        let plans = RedactionPlanner.plans(layout: layout, source: source)
        var outputs: [String: String] = [:]
        for (policy, plan) in [("strip", plans.strip), ("coarse", plans.coarse)] {
            var bytes = original
            #expect(plan.apply(to: &bytes, at: 0), "\(policy) withheld: \(plan)")
            let out = folder.appendingPathComponent("\(policy).\(ext)").path
            try Data(bytes).write(to: URL(fileURLWithPath: out))
            outputs[policy] = out
        }
        let readings = Self.exiftool(Array(outputs.values))
        let stripped = try #require(readings[outputs["strip"]!])
        #expect(Self.locationKeys(stripped).isEmpty, "\(item.file): left \(Self.locationKeys(stripped))")
        #expect(Self.newComplaints(before: before, after: stripped).isEmpty, "\(item.file)")
        let coarse = try #require(readings[outputs["coarse"]!])
        #expect(Self.newComplaints(before: before, after: coarse).isEmpty, "\(item.file)")
        #expect("\(coarse[item.coarseKey] ?? "")" == item.coarseValue, "\(item.file)")
        #expect(
            coarse.keys.filter {
                $0.contains("GPSAltitude") || $0.hasPrefix("XMP-photoshop")
                    || ($0.hasPrefix("IPTC:") && !Self.locationKeys([$0: 0]).isEmpty)
            }
            .isEmpty, "\(item.file)")
        // IPTC that is not a place survives.
        if before["IPTC:ObjectName"] != nil { #expect(stripped["IPTC:ObjectName"] as? String == "Kept", "\(item.file)") }
        if ext == "png" {
            #expect(Self.pixels(path) != nil && Self.pixels(path) == Self.pixels(outputs["strip"]!), "\(item.file): pixels differ")
        }
    }
}
