/// A case-insensitive file-name pattern: `*` any run of characters, `?` one character,
/// `[abc]`, `[a-z]` and `[!a-z]` (or `[^a-z]`) one character of a set, `\x` a literal `x`.
///
/// Matching never backtracks more than once per `*`, so a hostile pattern cannot make it
/// take more than (pattern length × name length) steps.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    /// One element of a compiled pattern.
    enum Element: Hashable, Sendable {
        case literal(Character)
        case anyOne
        case anyRun
        case set(negated: Bool, members: [ClosedRange<Character>])
    }

    /// The pattern as written.
    public let source: String
    let elements: [Element]

    /// Why a pattern cannot be compiled: the character offset of the problem.
    public enum SyntaxError: Error, Hashable, Sendable {
        /// A `[` without its `]`.
        case unclosedSet(at: Int)
        /// A `\` at the very end.
        case danglingEscape(at: Int)
    }

    /// Compiles a pattern; letters are folded to lower case.
    public init(_ pattern: String) throws(SyntaxError) {
        source = pattern
        let chars = Array(pattern.lowercased())
        var out: [Element] = []
        var i = 0
        while i < chars.count {
            let c = chars[i]
            switch c {
            case "*":
                if out.last != .anyRun { out.append(.anyRun) }
                i += 1
            case "?":
                out.append(.anyOne)
                i += 1
            case "\\":
                guard i + 1 < chars.count else { throw .danglingEscape(at: i) }
                out.append(.literal(chars[i + 1]))
                i += 2
            case "[":
                var j = i + 1
                var negated = false
                if j < chars.count, chars[j] == "!" || chars[j] == "^" {
                    negated = true
                    j += 1
                }
                var members: [ClosedRange<Character>] = []
                var first = true
                while j < chars.count, chars[j] != "]" || first {
                    first = false
                    let low = chars[j]
                    if j + 2 < chars.count, chars[j + 1] == "-", chars[j + 2] != "]" {
                        let high = chars[j + 2]
                        if low <= high { members.append(low...high) }
                        j += 3
                    } else {
                        members.append(low...low)
                        j += 1
                    }
                }
                guard j < chars.count else { throw .unclosedSet(at: i) }
                out.append(.set(negated: negated, members: members))
                i = j + 1
            default:
                out.append(.literal(c))
                i += 1
            }
        }
        elements = out
    }

    /// Whether the whole name matches the pattern, ignoring case.
    public func matches(_ name: String) -> Bool {
        let text = Array(name.lowercased())
        var p = 0
        var t = 0
        var starP = -1
        var starT = 0
        while t < text.count {
            if p < elements.count {
                switch elements[p] {
                case .anyRun:
                    starP = p
                    starT = t
                    p += 1
                    continue
                case .anyOne:
                    p += 1
                    t += 1
                    continue
                case .literal(let c) where c == text[t]:
                    p += 1
                    t += 1
                    continue
                case .set(let negated, let members) where members.contains(where: { $0.contains(text[t]) }) != negated:
                    p += 1
                    t += 1
                    continue
                default:
                    break
                }
            }
            guard starP >= 0 else { return false }
            p = starP + 1
            starT += 1
            t = starT
        }
        while p < elements.count, elements[p] == .anyRun { p += 1 }
        return p == elements.count
    }

    public var description: String { source }
}
