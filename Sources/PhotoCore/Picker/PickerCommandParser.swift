import MediaFormats

/// Parses the text of a write to `.picker` into statements. Pure syntax: whether apps
/// and assets exist is the executor's business.
///
/// ```
/// app add NAME [--filter F] [--location strip|coarse|keep] [--limit N] [--uid N] [--metadata keep|private]
/// app set NAME [same options; --uid none unbinds]
/// app remove NAME
/// select APP TARGET...          (a word after `--` is always a target)
/// select APP --where FILTER
/// deselect APP TARGET...
/// clear APP
/// ```
/// Options may also be written `--limit=5`.
public enum PickerCommandParser {
    /// Parses a whole write.
    public static func parse(_ input: [UInt8]) throws(PickerError) -> [PickerStatement] {
        var statements: [PickerStatement] = []
        for words in try PickerTokenizer.commands(input) {
            statements.append(PickerStatement(try command(words), line: words[0].line))
        }
        return statements
    }

    /// Parses text (for the CLI and tests).
    public static func parse(_ text: String) throws(PickerError) -> [PickerStatement] {
        try parse(Array(text.utf8))
    }

    /// Parses the words of one command (non-empty).
    public static func command(_ words: [PickerToken]) throws(PickerError) -> PickerCommand {
        let line = words.first?.line ?? 0
        var rest = words.makeIterator()
        guard let verbToken = rest.next() else { throw .missingArgument("command", line: line) }
        guard let verb = verbToken.text else { throw .notUTF8(line: line) }
        switch verb {
        case "app":
            guard let subToken = rest.next() else { throw .missingArgument("app command (add, set or remove)", line: line) }
            guard let sub = subToken.text else { throw .notUTF8(line: line) }
            switch sub {
            case "add":
                let name = try appName(rest.next(), line: line)
                return .appAdd(name: name, options: try options(Array(IteratorSequence(rest)), line: line))
            case "set":
                let name = try appName(rest.next(), line: line)
                let options = try options(Array(IteratorSequence(rest)), line: line)
                guard options != AppOptions() else {
                    throw .missingArgument("option to change (--filter, --location, --limit or --uid)", line: line)
                }
                return .appSet(name: name, options: options)
            case "remove":
                let name = try appName(rest.next(), line: line)
                try noMore(&rest, line: line)
                return .appRemove(name: name)
            default:
                throw .unknownAppCommand(sub, line: line)
            }
        case "select", "deselect":
            let app = try appName(rest.next(), line: line)
            let arguments = Array(IteratorSequence(rest))
            if verb == "select", let first = arguments.first, let text = first.text,
                text == PickerOption.where.rawValue || text.hasPrefix(PickerOption.where.rawValue + "=")
            {
                let filterWord: PickerToken
                var remaining = arguments.dropFirst()
                if text == PickerOption.where.rawValue {
                    guard let next = remaining.popFirst() else { throw .missingOptionValue(text, line: line) }
                    filterWord = next
                } else {
                    filterWord = PickerToken(bytes: Array(first.bytes.dropFirst(8)), line: first.line, column: first.column)
                }
                if let extra = remaining.first { throw .unexpectedArgument(String(decoding: extra.bytes, as: UTF8.self), line: line) }
                return .selectWhere(app: app, filter: try filter(filterWord, line: line))
            }
            let targets = try targets(arguments, line: line)
            return verb == "select" ? .select(app: app, targets: targets) : .deselect(app: app, targets: targets)
        case "clear":
            let app = try appName(rest.next(), line: line)
            try noMore(&rest, line: line)
            return .clear(app: app)
        default:
            throw .unknownCommand(verb, line: line)
        }
    }

    private static func appName(_ token: PickerToken?, line: Int) throws(PickerError) -> String {
        guard let token else { throw .missingArgument("app name", line: line) }
        guard let name = token.text else { throw .notUTF8(line: line) }
        guard AppName.isValid(name) else { throw .invalidAppName(name, line: line) }
        return name
    }

    private static func noMore(_ rest: inout IndexingIterator<[PickerToken]>, line: Int) throws(PickerError) {
        if let extra = rest.next() { throw .unexpectedArgument(String(decoding: extra.bytes, as: UTF8.self), line: line) }
    }

    private static func targets(_ words: [PickerToken], line: Int) throws(PickerError) -> [PickerTarget] {
        var targets: [PickerTarget] = []
        var optionsEnded = false
        for word in words {
            if !optionsEnded && word.bytes.starts(with: Array("--".utf8)) {
                if word.bytes.count == 2 {
                    optionsEnded = true
                    continue
                }
                throw .unknownOption(String(decoding: word.bytes, as: UTF8.self), line: line)
            }
            targets.append(PickerTarget(bytes: word.bytes))
        }
        guard !targets.isEmpty else { throw .missingArgument("target (an asset id or a path)", line: line) }
        return targets
    }

    private static func filter(_ word: PickerToken, line: Int) throws(PickerError) -> Filter {
        guard let text = word.text else { throw .notUTF8(line: line) }
        do {
            return try Filter(text)
        } catch {
            throw .invalidFilter(error, line: line)
        }
    }

    private static func options(_ words: [PickerToken], line: Int) throws(PickerError) -> AppOptions {
        var result = AppOptions()
        var seen: Set<PickerOption> = []
        var index = 0
        while index < words.count {
            let word = words[index]
            index += 1
            guard let text = word.text else { throw .notUTF8(line: line) }
            guard text.hasPrefix("--") else { throw .unexpectedArgument(text, line: line) }
            let name: String
            let valueWord: PickerToken
            if let equals = text.firstIndex(of: "=") {
                name = String(text[..<equals])
                valueWord = PickerToken(bytes: Array(text[text.index(after: equals)...].utf8), line: word.line, column: word.column)
            } else {
                name = text
                guard index < words.count else {
                    if PickerOption(rawValue: name) == nil || name == PickerOption.where.rawValue {
                        throw .unknownOption(name, line: line)
                    }
                    throw .missingOptionValue(name, line: line)
                }
                valueWord = words[index]
                index += 1
            }
            guard let option = PickerOption(rawValue: name), option != .where else {
                throw .unknownOption(name, line: line)
            }
            guard seen.insert(option).inserted else { throw .repeatedOption(name, line: line) }
            if option == .filter {
                result.filter = try filter(valueWord, line: line)
                continue
            }
            guard let value = valueWord.text else { throw .notUTF8(line: line) }
            let bad = PickerError.badOptionValue(option: name, value: value, line: line)
            switch option {
            case .location:
                guard let policy = LocationPolicy(rawValue: value) else { throw bad }
                result.location = policy
            case .metadata:
                guard let policy = MetadataPolicy(rawValue: value) else { throw bad }
                result.metadata = policy
            case .limit:
                guard value.utf8.count <= 10, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = Int(value), n <= 1_000_000_000
                else { throw bad }
                result.limit = n
            case .uid:
                if value == "none" {
                    result.uid = UIDBinding.none
                } else {
                    // 0 is root (which sees everything anyway) and 4294967295 is "no uid" to the kernel.
                    guard value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let n = UInt32(value), n > 0, n != UInt32.max
                    else { throw bad }
                    result.uid = .uid(n)
                }
            case .filter, .where:
                break
            }
        }
        return result
    }
}
