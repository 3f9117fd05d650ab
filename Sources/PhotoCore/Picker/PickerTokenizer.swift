/// One word of a picker command, as bytes, with where it starts.
public struct PickerToken: Hashable, Sendable {
    /// The word after quote removal (may be empty: `''`).
    public var bytes: [UInt8]
    /// 1-based line of the write.
    public var line: Int
    /// 1-based byte column within the line.
    public var column: Int

    public init(bytes: [UInt8], line: Int, column: Int) {
        self.bytes = bytes
        self.line = line
        self.column = column
    }

    /// The word as UTF-8 text, or nil when it is not valid UTF-8.
    var text: String? { String(validating: bytes, as: UTF8.self) }
}

/// Splits a write to `.picker` into commands and words, over bytes (file names need not be UTF-8).
///
/// Shell-like rules:
/// - spaces, tabs and carriage returns separate words; a newline ends a command;
/// - `'...'` takes every byte literally (newlines included);
/// - `"..."` takes bytes literally except `\"`, `\\`, `\$` and `` \` `` (the escaped
///   byte) and backslash-newline (removed); any other backslash stays;
/// - outside quotes a backslash takes the next byte literally, and backslash-newline joins lines;
/// - `#` at the start of a word starts a comment that runs to the end of the line;
/// - quoted and unquoted pieces next to each other form one word.
public enum PickerTokenizer {
    /// The commands of a write, each a non-empty list of words, in order.
    public static func commands(_ input: [UInt8]) throws(PickerError) -> [[PickerToken]] {
        var commands: [[PickerToken]] = []
        var current: [PickerToken] = []
        var word: [UInt8] = []
        var wordStart: (line: Int, column: Int)? = nil
        var line = 1
        var lineStart = 0
        var i = 0

        func column(_ index: Int) -> Int { index - lineStart + 1 }
        func endWord() {
            if let start = wordStart {
                current.append(PickerToken(bytes: word, line: start.line, column: start.column))
            }
            word = []
            wordStart = nil
        }
        func endCommand() {
            endWord()
            if !current.isEmpty { commands.append(current) }
            current = []
        }

        while i < input.count {
            let b = input[i]
            switch b {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                endWord()
                i += 1
            case UInt8(ascii: "\n"):
                endCommand()
                i += 1
                line += 1
                lineStart = i
            case UInt8(ascii: "#") where wordStart == nil:
                while i < input.count, input[i] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "'"):
                if wordStart == nil { wordStart = (line, column(i)) }
                let open = (line, column(i))
                i += 1
                while i < input.count, input[i] != UInt8(ascii: "'") {
                    if input[i] == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = i + 1
                    }
                    word.append(input[i])
                    i += 1
                }
                guard i < input.count else { throw .unterminatedQuote(line: open.0, column: open.1) }
                i += 1
            case UInt8(ascii: "\""):
                if wordStart == nil { wordStart = (line, column(i)) }
                let open = (line, column(i))
                i += 1
                while i < input.count, input[i] != UInt8(ascii: "\"") {
                    let c = input[i]
                    if c == UInt8(ascii: "\\"), i + 1 < input.count {
                        let next = input[i + 1]
                        if next == UInt8(ascii: "\n") {
                            i += 2
                            line += 1
                            lineStart = i
                            continue
                        }
                        if "\"\\$`".utf8.contains(next) {
                            word.append(next)
                            i += 2
                            continue
                        }
                    }
                    if c == UInt8(ascii: "\n") {
                        line += 1
                        lineStart = i + 1
                    }
                    word.append(c)
                    i += 1
                }
                guard i < input.count else { throw .unterminatedQuote(line: open.0, column: open.1) }
                i += 1
            case UInt8(ascii: "\\"):
                guard i + 1 < input.count else { throw .danglingBackslash(line: line, column: column(i)) }
                if input[i + 1] == UInt8(ascii: "\n") {
                    i += 2
                    line += 1
                    lineStart = i
                } else {
                    if wordStart == nil { wordStart = (line, column(i)) }
                    word.append(input[i + 1])
                    i += 2
                }
            default:
                if wordStart == nil { wordStart = (line, column(i)) }
                word.append(b)
                i += 1
            }
        }
        endCommand()
        return commands
    }
}
