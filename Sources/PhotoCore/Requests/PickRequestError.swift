/// Why a request file write was refused. Positions are 0-based character offsets; the
/// description shows them 1-based as a column.
public enum PickRequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A key that is not `media`, `limit`, `ordered`, `mode` or `timeout`.
    case unknownKey(String, at: Int)
    /// A value the key cannot take; `expected` says what it can.
    case badValue(key: String, value: String, at: Int, expected: String)
    /// A media kind that is not one of `FilterMediaType`.
    case unknownMedia(String, at: Int)
    /// A media combination that is not well formed (missing `)` or operand).
    case malformedMedia(at: Int)
    /// The same key twice.
    case repeatedKey(String, at: Int)
    /// The request is not UTF-8 or longer than `PickRequestParser.maximumLength`.
    case unreadable
    /// The app's limit is reached: adding is impossible (replace mode still works).
    case noRoomLeft(limit: Int)
    /// The app already has a request waiting for the person.
    case busy
    /// No app of this name (it was removed meanwhile).
    case unknownApp(String)

    /// One line: what is wrong and where.
    public var description: String {
        switch self {
        case .unknownKey(let key, let at):
            "unknown request key '\(key)' at column \(at + 1): use media, limit, ordered, mode or timeout"
        case .badValue(let key, let value, let at, let expected):
            "bad value '\(value)' for \(key) at column \(at + 1): expected \(expected)"
        case .unknownMedia(let word, let at):
            "unknown media '\(word)' at column \(at + 1): use \(FilterMediaType.allCases.map(\.rawValue).joined(separator: ", ")), any(...), all(...), not(...)"
        case .malformedMedia(let at):
            "malformed media combination at column \(at + 1): write e.g. any(image,video) or not(screenshot)"
        case .repeatedKey(let key, let at):
            "\(key) given twice (again at column \(at + 1))"
        case .unreadable:
            "the request is not UTF-8 text of at most \(PickRequestParser.maximumLength) bytes"
        case .noRoomLeft(let limit):
            "the app already has its limit of \(limit) photos: ask with mode=replace"
        case .busy:
            "a request of this app is already waiting for an answer"
        case .unknownApp(let name):
            "there is no app named '\(name)'"
        }
    }
}
