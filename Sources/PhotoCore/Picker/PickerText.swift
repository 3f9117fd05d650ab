/// Turning user bytes into text that is safe to show on one line.
enum PickerText {
    /// The bytes as text: valid UTF-8 stays as it is, except that `\` becomes `\\` and
    /// control characters (C0, DEL, C1, U+2028, U+2029) and invalid bytes become `\xNN`
    /// (or `\u{NNNN}`), so the result never holds a line break. Long input is cut at 200 bytes.
    static func escaped(_ bytes: [UInt8]) -> String {
        let limit = 200
        // Most paths are printable ASCII without a backslash: nothing to escape.
        if bytes.count <= limit, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x5C }) {
            return String(decoding: bytes, as: UTF8.self)
        }
        let cut = bytes.count > limit
        let bytes = cut ? Array(bytes.prefix(limit)) : bytes
        var out = ""
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            let length: Int =
                switch b {
                case 0..<0x80: 1
                case 0xC2...0xDF: 2
                case 0xE0...0xEF: 3
                case 0xF0...0xF4: 4
                default: 0
                }
            if length > 0, i + length <= bytes.count,
                let text = String(validating: bytes[i..<(i + length)], as: UTF8.self),
                let scalar = text.unicodeScalars.first
            {
                let v = scalar.value
                if v == 0x5C {
                    out += "\\\\"
                } else if v < 0x20 || v == 0x7F {
                    out += "\\x" + hex(UInt8(v))
                } else if (0x80...0x9F).contains(v) || v == 0x2028 || v == 0x2029 {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out += text
                }
                i += length
            } else {
                out += "\\x" + hex(b)
                i += 1
            }
        }
        return cut ? out + "…" : out
    }

    static func escaped(_ text: String) -> String { escaped(Array(text.utf8)) }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789abcdef")
        return String(digits[Int(b >> 4)]) + String(digits[Int(b & 15)])
    }

    /// A word quoted for the picker language so that it reads back as the same bytes:
    /// bare when it holds only safe characters, otherwise in single quotes (a `'` inside
    /// becomes `'\''`).
    static func quoted(_ text: String) -> String {
        let safe =
            !text.isEmpty
            && text.utf8.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                    || "._-/:+,=@%".utf8.contains(b)
            } && !text.hasPrefix("-") && !text.hasPrefix("#")
        if safe { return text }
        var out = "'"
        for c in text {
            out += c == "'" ? "'\\''" : String(c)
        }
        return out + "'"
    }
}
