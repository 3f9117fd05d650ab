import MediaFormats

/// Just enough JSON writing for the pages' answers: strings and string arrays, escaped by
/// `TextEscaping.jsonString`. Reading what the pages post is `PostedBody`'s.
enum JSONText {
    static func string(_ text: String) -> String { TextEscaping.jsonString(text) }

    static func strings(_ texts: [String]) -> String { "[" + texts.map(string).joined(separator: ",") + "]" }
}
