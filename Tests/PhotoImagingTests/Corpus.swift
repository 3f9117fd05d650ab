import Foundation

/// The shared photo corpus: `$PHOTOFS_CORPUS`, else `../shared/corpus` or `../../shared/corpus`
/// beside the package. Nil when absent: corpus tests print a message and skip.
enum Corpus {
    static let directory: String? = {
        let fm = FileManager.default
        if let env = ProcessInfo.processInfo.environment["PHOTOFS_CORPUS"] {
            return fm.isReadableFile(atPath: env + "/manifest.json") ? env : nil
        }
        var root = "\(#filePath)"
        for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
        let found = [root + "/../shared/corpus", root + "/../../shared/corpus"].first { fm.isReadableFile(atPath: $0 + "/manifest.json") }
        if found == nil { print("skipping corpus test: no shared corpus (set PHOTOFS_CORPUS)") }
        return found
    }()

    /// The manifest's entries (exiftool's reading of every file).
    static func manifest() throws -> [[String: Any]] {
        guard let directory else { return [] }
        let data = try Data(contentsOf: URL(fileURLWithPath: directory + "/manifest.json"))
        return (try JSONSerialization.jsonObject(with: data) as? [[String: Any]]) ?? []
    }

    /// The canonical absolute path of a manifest entry (the thumbnail URI is built from it).
    static func path(_ entry: [String: Any]) -> String? {
        guard let directory, let relative = entry["path"] as? String else { return nil }
        return URL(fileURLWithPath: directory + "/" + relative).resolvingSymlinksInPath().path
    }
}

/// exiftool `-n -json -a -G1` readings of many files in one run, keyed by path.
enum ExifToolReading {
    static func read(_ paths: [String], extraArguments: [String] = []) throws -> [String: [String: Any]] {
        guard !paths.isEmpty else { return [:] }
        let result = try Fixture.run("/usr/bin/env", ["exiftool", "-n", "-json", "-a", "-G1"] + extraArguments + ["--"] + paths)
        let rows = (try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]]) ?? []
        var readings: [String: [String: Any]] = [:]
        for row in rows {
            if let source = row["SourceFile"] as? String { readings[source] = row }
        }
        return readings
    }

    /// The `Group:Tag` keys that still say where a photo was taken: any GPS field but the
    /// version, a coordinate anywhere, a place in XMP or QuickTime.
    static func locationKeys(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            let parts = key.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2 else { return false }
            let (group, name) = (parts[0], parts[1])
            if name == "GPSVersionID" { return false }
            if group == "GPS"
                || ["GPSLatitude", "GPSLongitude", "GPSAltitude", "GPSPosition", "GPSCoordinates"].contains(where: name.hasPrefix)
            {
                return true
            }
            return group.hasPrefix("XMP") && ["GPS", "Latitude", "Longitude", "Location", "City", "Country"].contains { name.contains($0) }
        }.sorted()
    }
}
