import PhotoCore

/// The filter language as `photofs help filter` and the man page describe it: one row per
/// key of `FilterKey` (the switch has no default, so a new key cannot go undocumented).
enum FilterReference {
    static let syntax = """
        A filter is a search-bar expression. Terms separated by spaces are ANDed; OR and \
        parentheses group; -term or NOT term negates. Values may be quoted (model:"EOS 40D"). \
        Keywords are upper-case. A malformed filter is an error that names the column. An asset \
        without the field a term needs (no make, no width) fails the term and passes its negation. \
        On the command line, a filter that starts with '-' goes after '--': photofs ls -- -has:location
        """

    /// The value a key takes and what it matches.
    static func row(_ key: FilterKey) -> (value: String, matches: String) {
        switch key {
        case .type:
            (
                FilterMediaType.allCases.map(\.rawValue).joined(separator: " "),
                "media kind; screenshot: the file says so, or no camera and a screen-capture tool or name; "
                    + "panorama: a camera image 2:1 or wider; live matches nothing (a request's media=live does)"
            )
        case .taken:
            ("2024, 2024-06, 2024-06-01, A..B, A.., ..B, >=D, >D, <=D, <D", "capture date (file mtime when none), whole periods")
        case .make: ("text", "case-insensitive substring of the camera make")
        case .model: ("text", "case-insensitive substring of the camera model")
        case .lens: ("text", "case-insensitive substring of the lens model")
        case .camera: ("text", "substring of make, model or \"make model\"")
        case .has:
            (
                "location exif date",
                "has a location anywhere photofs redacts one (EXIF GPS, XMP, IPTC, a sidecar, a video's track or "
                    + "a trailer), or may hide one where it cannot look; has an EXIF block; has a real capture date"
            )
        case .orientation: ("1-8", "EXIF orientation")
        case .width: ("4000, >=4000, 1000..2000", "width in pixels")
        case .height: ("3000, <3000, 1000..2000", "height in pixels")
        case .megapixels: ("12, >=12", "width x height / 10^6")
        case .ext: ("jpg, heic", "file extension, case-insensitive")
        case .mime: ("image/jpeg, video/*", "MIME type of the detected format")
        case .size: (">10MB, 1MB..3MB, 1.5GiB", "file size (KB/MB/GB powers of 1000, KiB/MiB/GiB of 1024)")
        case .folder: ("Trips/2024", "that folder and below, whole components")
        case .name: ("IMG_*, ?, [a-z]", "glob on the file name, case-insensitive")
        }
    }

    static let examples = [
        "type:image taken:2024-06 make:canon",
        "has:location (camera:iphone OR camera:pixel) -type:screenshot",
        "taken:2023-06-01..2023-08-31 megapixels:>=12 folder:Trips",
        "type:image -has:location size:<20MB",
    ]

    /// `photofs help filter`.
    static var help: String {
        var text = "The filter language (photofs ls, app add --filter, select --where):\n\n" + wrap(syntax, indent: "  ") + "\n\nKeys:\n"
        for key in FilterKey.allCases {
            let (value, matches) = row(key)
            text += "  \(key.rawValue):".padding(15) + value + "\n" + String(repeating: " ", count: 17) + matches + "\n"
        }
        text += "\nExamples:\n" + examples.map { "  photofs ls '\($0)'\n" }.joined()
        return text
    }
}

/// `text` broken into lines of at most 88 characters, each starting with `indent`.
func wrap(_ text: String, indent: String) -> String {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ") {
        if line.count + word.count + 1 > 88, line != indent {
            lines.append(line)
            line = indent
        }
        line += (line == indent ? "" : " ") + word
    }
    lines.append(line)
    return lines.joined(separator: "\n")
}
