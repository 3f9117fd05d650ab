/// Text made safe to place inside another format: one rule per format, all built on the
/// same scalar-by-scalar rewrite, so no module keeps its own copy of an escaper.
public enum TextEscaping {
    /// `text` as a quoted JSON string (RFC 8259). `<` is written `\u003c` as well, so the
    /// string can sit inside an HTML `<script>` block without closing it.
    public static func jsonString(_ text: String) -> String {
        "\""
            + rewrite(text) { scalar in
                switch scalar {
                case "\"": "\\\""
                case "\\": "\\\\"
                case "\n": "\\n"
                case "\r": "\\r"
                case "\t": "\\t"
                case "<": "\\u003c"
                default: scalar.value < 0x20 ? "\\u" + hex4(scalar.value) : nil
                }
            } + "\""
    }

    /// `text` safe inside XML (and HTML) text and attribute values. Control characters XML
    /// 1.0 forbids even when escaped are dropped.
    public static func xml(_ text: String) -> String {
        rewrite(text) { scalar in
            switch scalar {
            case "&": "&amp;"
            case "<": "&lt;"
            case ">": "&gt;"
            case "\"": "&quot;"
            case "'": "&apos;"
            default:
                scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar.value == 0xFFFE || scalar.value == 0xFFFF
                    ? "" : nil
            }
        }
    }

    /// `text` with each scalar replaced by what `replacement` gives (nil keeps it).
    private static func rewrite(_ text: String, _ replacement: (Unicode.Scalar) -> String?) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if let replaced = replacement(scalar) {
                out += replaced
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func hex4(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
