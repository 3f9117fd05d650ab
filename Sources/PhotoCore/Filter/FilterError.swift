/// Why a filter expression could not be parsed.
///
/// Every position (`at:`) is a 0-based offset in **characters** (Swift `Character`s, i.e.
/// what a person counts) from the start of the filter text. `description` shows it
/// 1-based as a column, names what was expected, and says how to fix it.
public enum FilterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A `key:value` term whose key is not one of `FilterKey`.
    case unknownKey(String, at: Int)
    /// A bare word where a `key:value` term was expected.
    case missingKey(String, at: Int)
    /// `key:` with nothing after the colon.
    case emptyValue(key: FilterKey, at: Int)
    /// A value the key cannot use; `at` points at the value.
    case badValue(key: FilterKey, value: String, at: Int, expected: FilterExpectation)
    /// A `"` or `'` that opens a quote never closed; `at` points at the opening quote.
    case unterminatedQuote(at: Int)
    /// A `(` without its `)`; `at` points at the `(`.
    case unclosedParenthesis(at: Int)
    /// A `)` without a `(` before it.
    case unmatchedClosingParenthesis(at: Int)
    /// `()` with nothing inside; `at` points at the `(`.
    case emptyParentheses(at: Int)
    /// `NOT` or `-` followed by nothing to negate; `at` points at the operator.
    case emptyNegation(at: Int)
    /// `OR` or `AND` (the keyword is the payload) without a term on one of its sides;
    /// `at` points at the keyword.
    case missingOperand(String, at: Int)
    /// More than `FilterParser.maximumDepth` nested parentheses and negations; `at`
    /// points at the one that went too deep.
    case nestedTooDeeply(at: Int)

    /// Where the problem is, as a 0-based character offset.
    public var position: Int {
        switch self {
        case .unknownKey(_, let at), .missingKey(_, let at), .emptyValue(_, let at), .badValue(_, _, let at, _),
            .unterminatedQuote(let at), .unclosedParenthesis(let at), .unmatchedClosingParenthesis(let at),
            .emptyParentheses(let at), .emptyNegation(let at), .missingOperand(_, let at),
            .nestedTooDeeply(let at):
            at
        }
    }

    /// One line: what is wrong, at which column (1-based), and what to write instead.
    public var description: String {
        let column = "at column \(position + 1)"
        switch self {
        case .unknownKey(let key, _):
            return
                "unknown filter key '\(Self.printable(key))' \(column): use one of \(FilterKey.allCases.map(\.rawValue).joined(separator: ", "))"
        case .missingKey(let word, _) where ["or", "and", "not"].contains(word.lowercased()):
            return "'\(Self.printable(word))' \(column) is not a key:value term: write the keywords OR, AND, NOT in upper case"
        case .missingKey(let word, _):
            return
                "'\(Self.printable(word))' \(column) is not a key:value term: write e.g. name:\(Self.printable(word)) or camera:\(Self.printable(word))"
        case .emptyValue(let key, _):
            return "\(key.rawValue): has no value \(column): expected \(key.expectation.description)"
        case .badValue(let key, let value, _, let expected):
            return "bad value '\(Self.printable(value))' for \(key.rawValue): \(column): expected \(expected.description)"
        case .unterminatedQuote:
            return "quote opened \(column) is never closed: add the matching quote"
        case .unclosedParenthesis:
            return "'(' \(column) is never closed: add ')'"
        case .unmatchedClosingParenthesis:
            return "')' \(column) has no matching '(': remove it or add '(' before it"
        case .emptyParentheses:
            return "'()' \(column) is empty: put a term inside or remove it"
        case .emptyNegation:
            return "nothing to negate after NOT or '-' \(column): put a term after it, e.g. -has:location"
        case .nestedTooDeeply:
            return "parentheses and negations nest more than \(FilterParser.maximumDepth) deep \(column): simplify the filter"
        case .missingOperand(let keyword, _):
            return "\(keyword) \(column) needs a term on both sides, e.g. type:image \(keyword) type:video"
        }
    }

    /// The filter text with a second line whose caret points at the error's position
    /// (for terminals; characters wider than one column shift the caret).
    public func pointer(in source: String) -> String {
        let line = Self.printable(String(source.prefix(position)))
        return Self.printable(source) + "\n" + String(repeating: " ", count: line.count) + "^"
    }

    /// Keeps an error message on one line whatever the user typed.
    static func printable(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars.prefix(80) {
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return text.unicodeScalars.count > 80 ? out + "…" : out
    }
}

/// What kind of value a filter key takes: the "expected ..." half of an error message.
public enum FilterExpectation: Hashable, Sendable, CustomStringConvertible {
    case mediaType
    case date
    case number
    case decimal
    case size
    case orientation
    case hasProperty
    case text
    case glob
    case folder
    case mime
    /// A range `A..B` whose start lies after its end.
    case ascendingRange

    public var description: String {
        switch self {
        case .mediaType: "image, video, live, screenshot or panorama"
        case .date: "a date YYYY, YYYY-MM or YYYY-MM-DD, a range A..B, or a comparison like >=2024-01-01"
        case .number: "a whole number, a range like 1000..2000, or a comparison like >=4000"
        case .decimal: "a number like 12 or 12.5, a range like 8..24, or a comparison like >=12"
        case .size: "a size like 10MB, 512KiB or 2000000 (B, KB, MB, GB, TB; KiB, MiB, GiB, TiB), a range or a comparison like >10MB"
        case .orientation: "an EXIF orientation from 1 to 8"
        case .hasProperty: "location, exif or date"
        case .text: "some text"
        case .glob: "a file-name pattern with *, ? and [...] like IMG_*.jpg"
        case .folder: "a folder path relative to the library like Trips/2024, without '..'"
        case .mime: "a MIME type like image/jpeg or image/*"
        case .ascendingRange: "a range whose start is not after its end, like 2023..2024"
        }
    }
}
