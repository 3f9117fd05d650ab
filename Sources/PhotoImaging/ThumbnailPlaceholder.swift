import MediaFormats

/// The picture shown for a file no decoder handles (or whose picture is broken): an SVG
/// tile naming the file's type ("GIF image", "MP4 video") and its file name, so a person
/// still recognises the file. Names are escaped for XML (`TextEscaping.xml`).
/// It carries nothing from the file but its name and type.
public enum ThumbnailPlaceholder {
    /// The MIME type of what `svg` returns.
    public static let mime = "image/svg+xml"

    /// The words for a file's type: its format's name and kind ("HEIC image"), else the
    /// name's extension ("NEF file"), else "file".
    public static func typeLabel(format: MediaFormat?, name: String) -> String {
        let suffix = name.lastIndex(of: ".").map { name[name.index(after: $0)...].prefix(8).uppercased() } ?? ""
        guard let format else { return suffix.isEmpty ? "file" : suffix + " file" }
        let kind = format.kind == .video ? " video" : " image"
        switch format {
        // A raw file is best known by its maker's extension (NEF, CR2, ARW).
        case .raw: return (suffix.isEmpty ? "raw" : suffix) + kind
        case .bigTIFF: return "TIFF" + kind
        default: return format.rawValue.uppercased() + kind
        }
    }

    /// A square tile of `box` pixels with the type label and the file name.
    public static func svg(name: String, typeLabel: String, box: Int = 256) -> [UInt8] {
        let shown = name.count > 28 ? String(name.prefix(13)) + "…" + String(name.suffix(13)) : name
        let text = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(box)" height="\(box)" viewBox="0 0 256 256" role="img" \
            aria-label="\(TextEscaping.xml(typeLabel)): \(TextEscaping.xml(name))">\
            <rect width="256" height="256" fill="#3a3d44"/>\
            <rect x="88" y="56" width="80" height="100" rx="6" fill="none" stroke="#c8ccd4" stroke-width="6"/>\
            <text x="128" y="190" font-family="sans-serif" font-size="22" font-weight="bold" fill="#ffffff" text-anchor="middle">\
            \(TextEscaping.xml(typeLabel))</text>\
            <text x="128" y="222" font-family="sans-serif" font-size="15" fill="#dde1e8" text-anchor="middle">\(TextEscaping.xml(shown))</text>\
            </svg>
            """
        return Array(text.utf8)
    }
}
