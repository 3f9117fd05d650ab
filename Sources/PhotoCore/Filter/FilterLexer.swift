/// One token of a filter expression, with the character offset where it starts.
struct FilterToken: Hashable, Sendable {
    enum Kind: Hashable, Sendable {
        case openParenthesis
        case closeParenthesis
        /// The upper-case keyword `OR`.
        case or
        /// The upper-case keyword `AND` (optional: spaces already mean AND).
        case and
        /// The upper-case keyword `NOT`.
        case not
        /// A `-` at the start of a word.
        case minus
        /// A `key:value` term or a bare word.
        case word(FilterWord)
    }

    var kind: Kind
    var at: Int
}

/// A word of a filter, split at its first unquoted colon.
struct FilterWord: Hashable, Sendable {
    /// The text before the first unquoted `:`, or nil for a bare word.
    var key: String?
    /// The text after the colon (quotes removed), or the whole bare word.
    var value: String
    /// Where the value starts (after the colon and before any quote).
    var valueAt: Int
    /// Whether any part of the word was quoted (a quoted `OR` is not a keyword).
    var quoted: Bool
}

/// Splits filter text into tokens.
///
/// Whitespace separates words; `"..."` and `'...'` quote (no escapes inside: the other
/// quote character is the way to write one); quoted and unquoted pieces next to each
/// other form one word. Before its colon a word ends at `(` or `)`, so `NOT(...)` works; in
/// a value, parentheses that balance stay in the value (`name:IMG(1).jpg`) and an
/// unbalanced `)` ends the word (`(type:image)`). Quote anything more unusual.
struct FilterLexer {
    private let chars: [Character]

    init(_ source: String) { chars = Array(source) }

    func tokens() throws(FilterError) -> [FilterToken] {
        var out: [FilterToken] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace {
                i += 1
            } else if c == "(" {
                out.append(FilterToken(kind: .openParenthesis, at: i))
                i += 1
            } else if c == ")" {
                out.append(FilterToken(kind: .closeParenthesis, at: i))
                i += 1
            } else if c == "-" {
                out.append(FilterToken(kind: .minus, at: i))
                i += 1
            } else {
                let start = i
                let word = try readWord(from: &i)
                out.append(FilterToken(kind: keyword(word) ?? .word(word), at: start))
            }
        }
        return out
    }

    /// `OR`, `AND` and `NOT` are keywords only unquoted, upper-case and alone.
    private func keyword(_ word: FilterWord) -> FilterToken.Kind? {
        guard word.key == nil, !word.quoted else { return nil }
        switch word.value {
        case "OR": return .or
        case "AND": return .and
        case "NOT": return .not
        default: return nil
        }
    }

    private func readWord(from i: inout Int) throws(FilterError) -> FilterWord {
        let start = i
        var key: String?
        var text = ""
        var valueAt = start
        var sawQuote = false
        var openInValue = 0
        while i < chars.count {
            let c = chars[i]
            if c.isWhitespace || (c == "(" && key == nil) || (c == ")" && openInValue == 0) { break }
            if key != nil && c == "(" { openInValue += 1 }
            if c == ")" { openInValue -= 1 }
            if c == "\"" || c == "'" {
                sawQuote = true
                let open = i
                i += 1
                while i < chars.count, chars[i] != c {
                    text.append(chars[i])
                    i += 1
                }
                guard i < chars.count else { throw .unterminatedQuote(at: open) }
                i += 1
            } else if c == ":" && key == nil {
                key = text
                text = ""
                i += 1
                valueAt = i
            } else {
                text.append(c)
                i += 1
            }
        }
        return FilterWord(key: key, value: text, valueAt: valueAt, quoted: sawQuote)
    }
}
