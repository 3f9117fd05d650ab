import Foundation
import Glibc

/// exiftool and ImageMagick as independent readers of what a view serves: which location
/// tags a file still carries, which errors and warnings exiftool has about it, and a hash
/// of its decoded pixels. Nothing here prints a tag's value: location values are private
/// data even in test output, so only tag names leave this file.
enum LocationReader {
    /// Whether exiftool can be run (tests that need it skip with a message otherwise).
    static let exiftoolMissing: String? = {
        run(["/usr/bin/env", "exiftool", "-ver"]).status == 0 ? nil : "exiftool is not installed"
    }()

    /// exiftool's `-ee -n -json -a -G1` reading of every path, in one run (one Perl start for
    /// all files), keyed by the path as given.
    static func exiftool(_ paths: [String]) -> [String: [String: Any]] {
        guard !paths.isEmpty else { return [:] }
        // Through bash only to drop stderr: `run` merges it into the output, which must stay JSON.
        let result = run(["/bin/bash", "-c", "exec exiftool -ee -n -json -a -G1 -- \"$@\" 2>/dev/null", "exiftool"] + paths)
        guard let rows = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] else { return [:] }
        var readings: [String: [String: Any]] = [:]
        for row in rows {
            if let source = row["SourceFile"] as? String { readings[source] = row }
        }
        return readings
    }

    /// Tag names (no group) that hold a coordinate, an altitude or a position wherever they occur.
    static let coordinateNames = [
        "GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSPosition", "GPSCoordinates", "GPSDestLatitude", "GPSDestLongitude",
    ]
    /// Words that name a place or a position in XMP and QuickTime tags.
    static let placeWords = [
        "GPS", "Latitude", "Longitude", "Altitude", "Location", "ISO6709", "Coordinates", "City", "Country", "State", "Sublocation",
    ]
    /// The IPTC-IIM location datasets (2:90 City, 2:92 Sub-location, 2:95 Province-State,
    /// 2:100 and 2:101 Country, 2:26 and 2:27 Content Location) as exiftool names them.
    static let iptcLocationNames = [
        "City", "Sub-location", "Province-State", "Country-PrimaryLocationCode", "Country-PrimaryLocationName",
        "ContentLocationCode", "ContentLocationName",
    ]

    /// The `Group:Tag` keys of a reading that say where the photo was taken: what
    /// `has:location` must agree with and what `strip` must remove. A coordinate, altitude
    /// or position in any group; any GPS IFD or FLIR GPS field but the version; GeoTIFF
    /// georeferencing; XMP GPS fields, place names of any namespace (City, State, Country,
    /// CountryCode, Location..., Sublocation, WorldRegion) and DJI position, altitude and
    /// heading; IPTC place datasets (any IPTC group); QuickTime location keys and atoms.
    /// A creator's or licensor's address and a maker note's home-town city are identity,
    /// not location; the GPS version says nothing about a place.
    static func locationKeys(_ tags: [String: Any]) -> [String] {
        let placeNames = ["City", "State", "Country", "CountryCode", "Location", "Sublocation", "WorldRegion"]
        let geoTIFFNames = [
            "ModelTiePoint", "ModelPixelScale", "ModelTransform", "GeoTiffDirectory", "GeoTiffDoubleParams", "GeoTiffAsciiParams",
        ]
        return tags.keys.filter { key in
            guard let (group, name) = split(key) else { return false }
            if name == "GPSVersionID" { return false }
            if coordinateNames.contains(where: { name.hasPrefix($0) }) { return true }
            if group == "GPS" || group == "GeoTiff" || geoTIFFNames.contains(name) { return true }
            if group == "FLIR" { return name.hasPrefix("GPS") }
            if group.hasPrefix("IPTC") { return iptcLocationNames.contains(name) }
            if group.hasPrefix("XMP") {
                if name.hasPrefix("Creator") || name.hasPrefix("Licensor") { return false }
                if name.hasPrefix("GPS") || name.hasPrefix("Location") { return true }
                if placeNames.contains(where: { name.hasPrefix($0) || name.hasSuffix($0) }) { return true }
                return group == "XMP-drone-dji" && ["Gps", "Latitude", "Longitude", "Altitude", "Yaw"].contains(where: name.contains)
            }
            if ["QuickTime", "Keys", "ItemList", "UserData", "Track1", "Track2", "Track3"].contains(group) {
                return ["GPS", "Location", "ISO6709", "Coordinates"].contains { name.localizedCaseInsensitiveContains($0) }
            }
            return false
        }.sorted()
    }

    /// The IPTC place-name keys of a reading.
    static func iptcLocationKeys(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            guard let (group, name) = split(key) else { return false }
            return group.hasPrefix("IPTC") && iptcLocationNames.contains(name)
        }.sorted()
    }

    /// exiftool errors and warnings in `after` that `before` did not have (the messages
    /// themselves hold no coordinates).
    static func newComplaints(before: [String: Any], after: [String: Any]) -> [String] {
        ["ExifTool:Error", "ExifTool:Warning"].compactMap { key in
            guard let message = after[key].map({ "\($0)" }), message != before[key].map({ "\($0)" }) else { return nil }
            return "new \(key): \(message)"
        }
    }

    /// A coordinate as exiftool computes it (signed under `-n`): from EXIF and QuickTime
    /// through `Composite`, else XMP's own.
    static func coordinate(_ tags: [String: Any], _ name: String) -> Double? {
        for key in ["Composite:\(name)", "XMP-exif:\(name)"] {
            if let value = tags[key] as? Double { return value }
            if let value = tags[key] as? Int { return Double(value) }
        }
        return nil
    }

    /// Whether `value` lies on the 0.01° grid (is no finer than 0.01°).
    static func onHundredthGrid(_ value: Double) -> Bool {
        abs(value * 100 - (value * 100).rounded()) <= 1e-6
    }

    /// SHA-256 of the first image's pixels as ImageMagick decodes them (8-bit RGBA), or why
    /// it could not decode the file.
    static func pixelHash(_ path: String) -> Result<String, DecodeFailure> {
        let script =
            "set -o pipefail; convert \"$1[0]\" -depth 8 rgba:- 2>/tmp/photofs-convert-$$.err | sha256sum; s=$?; "
            + "if [ $s -ne 0 ]; then head -c 300 /tmp/photofs-convert-$$.err; fi; rm -f /tmp/photofs-convert-$$.err; exit $s"
        let result = run(["/bin/bash", "-c", script, "decode", path])
        let words = result.output.split(separator: " ")
        guard result.status == 0, let hash = words.first, hash.count == 64,
            hash != "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"  // nothing decoded
        else {
            let reason = result.output.split(separator: "\n").first.map(String.init) ?? "exit status \(result.status)"
            return .failure(DecodeFailure(reason: reason))
        }
        return .success(String(hash))
    }

    /// Why ImageMagick could not decode a file.
    struct DecodeFailure: Error {
        let reason: String
    }

    private static func split(_ key: String) -> (String, String)? {
        let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
}

/// The corpus beside the package root (`../shared/corpus`) or `$PHOTOFS_CORPUS`, and its
/// sibling `corpus-extra` when present: every file of their `manifest.json`s.
enum GPSCorpus {
    /// One corpus file: where it is, where the test library keeps it, what exiftool made of it.
    struct File {
        /// Absolute path of the corpus file.
        let source: String
        /// Library-relative path (files of `corpus-extra` under `extra/`).
        let path: String
        /// exiftool's FileType (nil when it found no format).
        let fileType: String?
        let hasGPS: Bool
    }

    /// The files, or why there is no corpus.
    static func files() -> Result<[File], CorpusMissing> {
        guard let corpus = DaemonMountTests.corpus else {
            return .failure(CorpusMissing(reason: "no corpus at ../shared/corpus and PHOTOFS_CORPUS unset"))
        }
        var files: [File] = []
        for (base, prefix) in [(corpus, ""), (corpus + "-extra", "extra/")] {
            guard let data = FileManager.default.contents(atPath: base + "/manifest.json"),
                let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
            else {
                if prefix.isEmpty { return .failure(CorpusMissing(reason: "\(base)/manifest.json is unreadable")) }
                continue
            }
            files += list.compactMap { item in
                guard let path = item["path"] as? String else { return nil }
                let hasGPS = (item["hasGPS"] as? Bool ?? false) || (item["hasGPSIFD"] as? Bool ?? false)
                return File(source: base + "/" + path, path: prefix + path, fileType: item["fileType"] as? String, hasGPS: hasGPS)
            }
        }
        return .success(files)
    }

    struct CorpusMissing: Error {
        let reason: String
    }
}
