/// Finds a capture date in an XMP packet, for files whose EXIF has none (edited exports,
/// some PNG and video files): `exif:DateTimeOriginal`, then `xmp:CreateDate`, then
/// `photoshop:DateCreated`, written either as an attribute (`exif:DateTimeOriginal="..."`)
/// or as an element (`<exif:DateTimeOriginal>...</exif:DateTimeOriginal>`).
///
/// A text search, not an XML parser: the prefixes are the ones every XMP writer uses for
/// these namespaces, and a wrong guess only means falling back to the file's mtime.
public enum XMPDateScanner {
    /// The properties looked for, most trusted first.
    static let properties = ["exif:DateTimeOriginal", "xmp:CreateDate", "photoshop:DateCreated"]

    /// The first date found in `packet`, or nil.
    public static func captureDate(in packet: [UInt8]) -> CaptureDate? {
        for property in properties {
            if let value = value(of: property, in: packet), let date = parse(value) { return date }
        }
        return nil
    }

    /// The text of `property` as an attribute value or element content.
    public static func value(of property: String, in packet: [UInt8]) -> [UInt8]? {
        let name = Array(property.utf8)
        var index = 0
        while let found = find(name, in: packet, from: index) {
            var cursor = found + name.count
            index = found + 1
            // Attribute form: name, optional spaces, '=', optional spaces, quote.
            var probe = cursor
            while probe < packet.count, packet[probe] == 0x20 { probe += 1 }
            if probe < packet.count, packet[probe] == 0x3D {
                probe += 1
                while probe < packet.count, packet[probe] == 0x20 { probe += 1 }
                guard probe < packet.count, packet[probe] == 0x22 || packet[probe] == 0x27 else { continue }
                let quote = packet[probe]
                let start = probe + 1
                guard let end = packet[start...].firstIndex(of: quote), end - start <= 64 else { continue }
                return Array(packet[start..<end])
            }
            // Element form: the name must follow '<' and end at '>'.
            guard found > 0, packet[found - 1] == 0x3C, cursor < packet.count, packet[cursor] == 0x3E else { continue }
            cursor += 1
            guard let end = packet[cursor...].firstIndex(of: 0x3C), end - cursor <= 64 else { continue }
            return Array(packet[cursor..<end])
        }
        return nil
    }

    /// Parses the XMP (ISO 8601) date form `YYYY-MM-DD[THH:MM[:SS[.s]]][Z|±HH:MM]`; a bare
    /// year or year-month is too vague for a capture date.
    public static func parse(_ value: [UInt8]) -> CaptureDate? {
        let text = String(decoding: value, as: UTF8.self).trimmingSpaces
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, chars[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(String(decoding: chars[range], as: UTF8.self))
        }
        guard chars.count >= 10, chars[4] == 0x2D, chars[7] == 0x2D, let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var cursor = 10
        if cursor < chars.count, chars[cursor] == 0x54 || chars[cursor] == 0x20 {
            guard let h = number(11..<13), chars.count >= 16, chars[13] == 0x3A, let m = number(14..<16) else { return nil }
            hour = h
            minute = m
            cursor = 16
            if cursor < chars.count, chars[cursor] == 0x3A {
                guard let s = number(17..<19) else { return nil }
                second = s
                cursor = 19
                if cursor < chars.count, chars[cursor] == 0x2E {
                    cursor += 1
                    while cursor < chars.count, chars[cursor] >= 0x30 && chars[cursor] <= 0x39 { cursor += 1 }
                }
            }
        }
        var offset: Int?
        if cursor < chars.count {
            let zone = String(decoding: chars[cursor...], as: UTF8.self)
            guard let minutes = CaptureDate.utcOffsetMinutes(zone) else { return nil }
            offset = minutes
        }
        let padded = "\(year):\(month):\(day) \(hour):\(minute):\(second)"
        guard var date = CaptureDate(exif: padded) else { return nil }
        date.utcOffsetMinutes = offset
        return date
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == first, haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and line breaks.
    fileprivate var trimmingSpaces: String {
        let scalars = unicodeScalars
        guard let start = scalars.firstIndex(where: { !" \t\r\n".unicodeScalars.contains($0) }),
            let end = scalars.lastIndex(where: { !" \t\r\n".unicodeScalars.contains($0) })
        else { return "" }
        return String(scalars[start...end])
    }
}
