import Foundation

/// exiftool as the judge of `--metadata private`: which identity tags a file still
/// carries. Reads with `-ee -a -G0:1`, so that every maker-note tag shows its family-0
/// group `MakerNotes` whatever the camera. Only tag names leave this file.
enum IdentityReader {
    /// exiftool's `-ee -json -a -G0:1` reading of every path, keyed by the path as given.
    static func exiftool(_ paths: [String]) -> [String: [String: Any]] {
        guard !paths.isEmpty else { return [:] }
        let result = run(["/bin/bash", "-c", "exec exiftool -ee -json -a -G0:1 -- \"$@\" 2>/dev/null", "exiftool"] + paths)
        guard let rows = try? JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]] else { return [:] }
        var readings: [String: [String: Any]] = [:]
        for row in rows {
            if let source = row["SourceFile"] as? String { readings[source] = row }
        }
        return readings
    }

    /// Every exiftool warning and error of every path (JSON keeps only one of each), in one
    /// run, keyed by the path as given.
    static func complaints(_ paths: [String]) -> [String: Set<String>] {
        guard !paths.isEmpty else { return [:] }
        let script = "exec exiftool -ee -a -s -Warning -Error -- \"$@\" 2>/dev/null"
        let result = run(["/bin/bash", "-c", script, "exiftool"] + paths)
        var found: [String: Set<String>] = [:]
        var current = paths.count == 1 ? paths[0] : nil
        for line in result.output.split(separator: "\n") {
            if line.hasPrefix("======== ") {
                current = String(line.dropFirst(9))
                continue
            }
            guard let current, let colon = line.firstIndex(of: ":") else { continue }
            let tag = line[..<colon].trimmingCharacters(in: .whitespaces)
            guard tag == "Warning" || tag == "Error" else { continue }
            found[current, default: []].insert(tag + ": " + line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return found
    }

    /// Tag names (no group) that say who: serial numbers and unique ids, owners, artists,
    /// creators and their contacts, face and person names, free text, time-zone offsets,
    /// home and world-time cities, document ids.
    static let identityNames: Set<String> = [
        "SerialNumber", "InternalSerialNumber", "LensSerialNumber", "BodySerialNumber", "CameraSerialNumber", "ImageUniqueID",
        "OwnerName", "CameraOwnerName", "Artist", "Creator", "By-line", "By-lineTitle", "Copyright", "CopyrightNotice", "Rights",
        "Author", "XPAuthor", "UserComment", "Comment", "ImageDescription", "Description", "Caption-Abstract", "Title", "XPTitle",
        "XPComment", "XPSubject", "XPKeywords", "ObjectName", "Keywords", "Subject", "HierarchicalSubject", "RegionName",
        "RegionPersonDisplayName", "PersonInImage", "OffsetTime", "OffsetTimeOriginal", "OffsetTimeDigitized", "TimeZoneOffset",
        "TimeZone", "HomeTownCity", "HometownCity", "DestinationCity", "WorldTimeLocation", "DocumentID", "InstanceID",
        "OriginalDocumentID", "DerivedFromDocumentID", "DerivedFromInstanceID", "Headline", "Credit", "Contact",
        "CreatorContactInfo", "CreatorWorkEmail", "CreatorCity", "CreatorAddress", "CreatorWorkTelephone", "CreatorWorkURL",
        "Writer-Editor", "CaptionWriter", "SpecialInstructions", "Instructions", "Category", "SupplementalCategories",
        "OriginalTransmissionReference", "UniqueObjectName", "CameraLabel", "OriginalRawFileName", "RawDataUniqueID",
        "ImageNumber", "HostComputer", "DocumentName", "PageName", "ImageTitle", "Photographer", "ImageEditor", "Destination",
        "RelatedSoundFile", "DocumentHistory",
    ]

    /// The identity tags of a `-G0:1` reading (`Group0:Group1:Name` keys): listed names in
    /// any group, and anything in a maker note.
    static func identityKeys(_ tags: [String: Any]) -> [String] {
        tags.keys.filter { key in
            let name = String(key.split(separator: ":").last ?? "")
            return identityNames.contains(name) || key.hasPrefix("MakerNotes:")
        }.sorted()
    }
}
