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

    /// exiftool's `-n -json -a -G1` reading of every path, in one run (one Perl start for
    /// all files), keyed by the path as given.
    static func exiftool(_ paths: [String]) -> [String: [String: Any]] {
        guard !paths.isEmpty else { return [:] }
        // Through bash only to drop stderr: `run` merges it into the output, which must stay JSON.
        let result = run(["/bin/bash", "-c", "exec exiftool -n -json -a -G1 -- \"$@\" 2>/dev/null", "exiftool"] + paths)
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

    /// The `Group:Tag` keys of a reading that still say where the photo was taken: a
    /// coordinate, altitude or position in any group; any GPS IFD field but the version;
    /// any location or place tag in an XMP or QuickTime group (Keys, ItemList, UserData).
    /// The GPS version (what an emptied GPS directory keeps) says nothing about a place.
    /// IPTC place names are `iptcLocationKeys`.
    static func locationKeys(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            guard let (group, name) = split(key) else { return false }
            if name == "GPSVersionID" { return false }
            if coordinateNames.contains(where: { name.hasPrefix($0) }) { return true }
            if group == "GPS" { return true }
            let quickTime = ["QuickTime", "Keys", "ItemList", "UserData", "Track1", "Track2", "Track3"].contains(group)
            if group.hasPrefix("XMP") || quickTime {
                return placeWords.contains { name.localizedCaseInsensitiveContains($0) }
            }
            return false
        }.sorted()
    }

    /// The IPTC place-name keys of a reading.
    static func iptcLocationKeys(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            guard let (group, name) = split(key) else { return false }
            return group == "IPTC" && iptcLocationNames.contains(name)
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

/// The corpus beside the package root (`../shared/corpus`) or `$PHOTOFS_CORPUS`, with the
/// files its `manifest.json` marks as holding GPS (`hasGPS` or `hasGPSIFD`).
enum GPSCorpus {
    /// Library-relative paths of the files with GPS, or nil (with the reason) when there is no corpus.
    static func files() -> Result<[String], CorpusMissing> {
        guard let corpus = DaemonMountTests.corpus else {
            return .failure(CorpusMissing(reason: "no corpus at ../shared/corpus and PHOTOFS_CORPUS unset"))
        }
        guard let data = FileManager.default.contents(atPath: corpus + "/manifest.json"),
            let list = try? JSONSerialization.jsonObject(with: data) as? [[String: Any]]
        else { return .failure(CorpusMissing(reason: "\(corpus)/manifest.json is unreadable")) }
        return .success(
            list.compactMap { item in
                guard let path = item["path"] as? String else { return nil }
                return (item["hasGPS"] as? Bool ?? false) || (item["hasGPSIFD"] as? Bool ?? false) ? path : nil
            })
    }

    struct CorpusMissing: Error {
        let reason: String
    }
}
