/// What an XMP packet says about how an image was made, for files without those EXIF
/// tags: the creator tool (as `software`) and a screen-capture comment (macOS writes
/// `<exif:UserComment>...Screenshot...</exif:UserComment>` into the XMP of its PNGs).
public enum XMPHints {
    /// `xmp:CreatorTool`, trimmed; nil when absent or empty.
    public static func creatorTool(in packet: [UInt8]) -> String? {
        guard let value = XMPDateScanner.value(of: "xmp:CreatorTool", in: packet) else { return nil }
        let text = String(decoding: value, as: UTF8.self).trimmingCharacters(in: " \t\r\n")
        return text.isEmpty ? nil : text
    }

    /// Whether the packet's `exif:UserComment` mentions a screenshot.
    public static func saysScreenshot(in packet: [UInt8]) -> Bool {
        let open = Array("<exif:UserComment".utf8)
        let close = Array("</exif:UserComment>".utf8)
        guard let start = firstIndex(of: open, in: packet, from: 0),
            let end = firstIndex(of: close, in: packet, from: start), end - start < 4096
        else { return false }
        return String(decoding: packet[start..<end], as: UTF8.self).lowercased().contains("screenshot")
    }

    private static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, needle.count <= haystack.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
        }
        return nil
    }
}

extension String {
    /// The string without the given characters at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        let scalars = unicodeScalars
        let unwanted = Set(set.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !unwanted.contains($0) }),
            let last = scalars.lastIndex(where: { !unwanted.contains($0) })
        else { return "" }
        return String(scalars[first...last])
    }
}
