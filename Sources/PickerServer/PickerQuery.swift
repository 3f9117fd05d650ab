import MediaFormats
import PhotoCore

/// The one search language of the web and terminal pickers: plain words and filter terms,
/// mixed in any order.
///
/// - A plain word (`nokia`, `beach`, `2023`, `june`, `"new york"`) must appear, ignoring
///   case, in the file's name, its folder, its camera (make and model), its date written
///   `2023-06-14`, its month's name, or its kind (`photo`, `video`). `-word` excludes.
/// - A `key:value` term, `OR`, `AND`, `NOT` and parentheses are the filter language
///   (`camera:canon taken:2024-06`), with its errors and their columns.
///
/// Plain words are all required; they do not take part in `OR` or parentheses.
public struct PickerQuery: Sendable {
    /// The words that must appear, lower-cased.
    public let words: [String]
    /// The words that must not appear, lower-cased.
    public let excluded: [String]
    /// The filter terms, parsed from the query with every plain word blanked out (so a
    /// filter error's column is the column in the query as typed).
    public let filter: Filter

    /// Parses `text`; throws the filter's error (with its column) when a term is wrong.
    public init(_ text: String) throws(FilterError) {
        var termText = Array(text)
        var words: [String] = []
        var excluded: [String] = []
        for word in Self.plainWords(in: termText) {
            for index in word.range { termText[index] = " " }
            guard !word.text.isEmpty else { continue }
            if word.negated { excluded.append(word.text.lowercased()) } else { words.append(word.text.lowercased()) }
        }
        self.words = words
        self.excluded = excluded
        self.filter = try Filter(String(termText))
    }

    /// Whether `asset`, whose `searchText(of:)` is `text`, passes the query.
    public func matches(_ asset: Asset, text: @autoclosure () -> String) -> Bool {
        guard filter.matches(asset) else { return false }
        guard !words.isEmpty || !excluded.isEmpty else { return true }
        let haystack = text()
        return words.allSatisfy { haystack.contains($0) } && !excluded.contains { haystack.contains($0) }
    }

    /// Whether the query has plain words (and so needs each asset's search text).
    public var hasWords: Bool { !words.isEmpty || !excluded.isEmpty }

    static let monthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
    ]

    /// What plain words are looked for in, lower-cased: name, folder, camera, date, month, kind.
    public static func searchText(of asset: Asset) -> String {
        let path = asset.path.display
        let date = asset.effectiveDate
        let camera = [asset.metadata.make, asset.metadata.model].compactMap { $0 }.joined(separator: " ")
        let month = (1...12).contains(date.month) ? monthNames[date.month - 1] : ""
        let day = PickerLabels.day(date)
        let kind = asset.metadata.format.kind == .video ? "video" : "photo"
        return (path + " " + camera + " " + day + " " + month + " " + kind).lowercased()
    }

    /// One plain word of a query: where it is (with its `-`), its text without quotes.
    struct PlainWord {
        var range: Range<Int>
        var text: String
        var negated: Bool
    }

    /// The plain words of `chars`, read with the filter language's word rules: whitespace
    /// separates, quotes group, a word holding an unquoted `:` is a term, `OR` `AND` `NOT`
    /// are keywords, parentheses stand alone.
    static func plainWords(in chars: [Character]) -> [PlainWord] {
        var found: [PlainWord] = []
        var index = 0
        while index < chars.count {
            let char = chars[index]
            if char.isWhitespace || char == "(" || char == ")" {
                index += 1
                continue
            }
            let start = index
            var negated = false
            if char == "-" {
                negated = true
                index += 1
            }
            var text = ""
            var quote: Character? = nil
            var isTerm = false
            var quoted = false
            var depth = 0
            while index < chars.count {
                let c = chars[index]
                if let open = quote {
                    if c == open { quote = nil } else { text.append(c) }
                } else if c == "\"" || c == "'" {
                    quote = c
                    quoted = true
                } else if c.isWhitespace {
                    break
                } else if c == "(" {
                    if !isTerm { break }
                    depth += 1
                    text.append(c)
                } else if c == ")" {
                    if depth == 0 { break }
                    depth -= 1
                    text.append(c)
                } else {
                    if c == ":" { isTerm = true }
                    text.append(c)
                }
                index += 1
            }
            let keyword = !quoted && ["OR", "AND", "NOT"].contains(text)
            if !isTerm, !keyword, !(negated && text.isEmpty) {
                found.append(PlainWord(range: start..<index, text: text, negated: negated))
            }
            if index == start { index += 1 }
        }
        return found
    }
}
