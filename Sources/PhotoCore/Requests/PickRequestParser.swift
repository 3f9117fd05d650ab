/// Parses the text an app writes to its request file into a `PickRequest` (grammar in
/// `PickRequest`'s comment). Errors carry the column of the offending item.
public enum PickRequestParser {
    /// Requests are one short line; anything longer is refused unread.
    public static let maximumLength = 4096

    public static func parse(_ bytes: [UInt8]) throws(PickRequestError) -> PickRequest {
        guard bytes.count <= maximumLength, let text = String(validating: bytes, as: UTF8.self) else { throw .unreadable }
        return try parse(text)
    }

    public static func parse(_ text: String) throws(PickRequestError) -> PickRequest {
        let characters = Array(text)
        var request = PickRequest()
        var seen: Set<String> = []
        var index = 0
        while index < characters.count {
            if characters[index].isWhitespace || characters[index] == ";" {
                index += 1
                continue
            }
            let start = index
            while index < characters.count, !characters[index].isWhitespace, characters[index] != ";" { index += 1 }
            let item = String(characters[start..<index])
            let key: String
            let value: String?
            if let equals = item.firstIndex(of: "=") {
                key = String(item[..<equals]).lowercased()
                value = String(item[item.index(after: equals)...])
            } else {
                key = item.lowercased()
                value = nil
            }
            let valueStart = start + key.count + 1
            guard !seen.contains(key) else { throw .repeatedKey(key, at: start) }
            seen.insert(key)
            switch key {
            case "media":
                guard let value, !value.isEmpty else { throw .badValue(key: key, value: "", at: start, expected: "a media kind") }
                var parser = MediaParser(Array(value), offset: valueStart)
                request.media = try parser.parse()
            case "limit":
                guard let value, let limit = Int(value), limit >= 0, limit <= 100_000 else {
                    throw .badValue(key: key, value: value ?? "", at: valueStart, expected: "a whole number from 0 to 100000")
                }
                request.limit = limit
            case "ordered":
                switch value?.lowercased() {
                case nil, "yes", "true", "1": request.ordered = true
                case "no", "false", "0": request.ordered = false
                default: throw .badValue(key: key, value: value ?? "", at: valueStart, expected: "yes or no")
                }
            case "mode":
                guard let value, let mode = PickRequest.Mode(rawValue: value.lowercased()) else {
                    throw .badValue(key: key, value: value ?? "", at: valueStart, expected: "add or replace")
                }
                request.mode = mode
            case "timeout":
                guard let value, let seconds = Int(value), seconds >= 1, seconds <= PickRequest.maximumTimeout else {
                    throw .badValue(
                        key: key, value: value ?? "", at: valueStart, expected: "seconds from 1 to \(PickRequest.maximumTimeout)")
                }
                request.timeoutSeconds = seconds
            default:
                throw .unknownKey(key, at: start)
            }
        }
        return request
    }
}

/// The recursive-descent parser of a `media=` value.
private struct MediaParser {
    let characters: [Character]
    /// The column of `characters[0]` in the whole request.
    let offset: Int
    var index = 0

    init(_ characters: [Character], offset: Int) {
        self.characters = characters
        self.offset = offset
    }

    mutating func parse() throws(PickRequestError) -> MediaSelector {
        let selector = try selector()
        guard index == characters.count else { throw .malformedMedia(at: offset + index) }
        return selector
    }

    private mutating func selector() throws(PickRequestError) -> MediaSelector {
        let start = index
        while index < characters.count, characters[index].isLetter { index += 1 }
        let word = String(characters[start..<index]).lowercased()
        guard !word.isEmpty else { throw .malformedMedia(at: offset + start) }
        if index < characters.count, characters[index] == "(" {
            index += 1
            var operands: [MediaSelector] = []
            while true {
                operands.append(try selector())
                guard index < characters.count else { throw .malformedMedia(at: offset + index) }
                if characters[index] == "," {
                    index += 1
                    continue
                }
                guard characters[index] == ")" else { throw .malformedMedia(at: offset + index) }
                index += 1
                break
            }
            switch word {
            case "any": return .any(operands)
            case "all": return .all(operands)
            case "not":
                guard operands.count == 1 else { throw .malformedMedia(at: offset + start) }
                return .not(operands[0])
            default: throw .unknownMedia(word, at: offset + start)
            }
        }
        guard let kind = Self.kinds[word] else { throw .unknownMedia(word, at: offset + start) }
        return .kind(kind)
    }

    /// Media names, singular and plural (`images` like PHPickerFilter's `.images`).
    static let kinds: [String: FilterMediaType] = {
        var kinds: [String: FilterMediaType] = [:]
        for kind in FilterMediaType.allCases {
            kinds[kind.rawValue] = kind
            kinds[kind.rawValue + "s"] = kind
        }
        kinds["livephoto"] = .live
        kinds["livephotos"] = .live
        return kinds
    }()
}
