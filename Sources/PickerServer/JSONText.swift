/// Just enough JSON writing for the picker's answers (strings escaped per RFC 8259).
enum JSONText {
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    static func strings(_ texts: [String]) -> String { "[" + texts.map(string).joined(separator: ",") + "]" }

    /// The string values of a flat JSON object's array member `key` (`{"ids":["a","b"]}`),
    /// for the small bodies the page posts; nil when the body is not that shape.
    static func stringArray(_ key: String, in body: [UInt8]) -> [String]? {
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        let characters = Array(text)
        let needle = Array("\"\(key)\"")
        guard
            let keyAt = (0...max(0, characters.count - needle.count)).first(where: {
                Array(characters[$0..<min(characters.count, $0 + needle.count)]) == needle
            }),
            let open = characters[keyAt...].firstIndex(of: "["), let close = characters[open...].firstIndex(of: "]")
        else { return nil }
        var values: [String] = []
        var current = ""
        var inString = false
        for character in characters[(open + 1)..<close] {
            if character == "\"" {
                if inString { values.append(current) }
                current = ""
                inString.toggle()
            } else if inString {
                // Asset ids are hex; anything needing escapes is not one.
                guard character != "\\" else { return nil }
                current.append(character)
            }
        }
        return inString ? nil : values
    }
}
