import MediaFormats

/// Parses the text of a write to `.picker` into statements. Pure syntax: whether apps
/// and assets exist is the executor's business.
///
/// ```
/// app add NAME [--filter F] [--location strip|coarse|keep] [--limit N] [--uid N]
///               [--representation original|compatible] [--quality Q] [--metadata keep|private]
/// app set NAME [same options; --uid none unbinds]
/// app remove NAME
/// select APP TARGET...          (a word after `--` is always a target)
/// select APP --where FILTER
/// select APP --rule FILTER
/// deselect APP TARGET...
/// deselect APP --rule FILTER
/// clear APP
/// once begin|end APP PID:START:BOOT-ID
/// ```
/// `select` also takes `--for DURATION` or `--until DATE` and `--once PID:START:BOOT-ID`
/// (see `ExpiryParser`); `app add|set` take `--grants-expire DURATION|none`.
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
        let verb = try text(rest.next(), missing: "command", line: line)
        switch verb {
        case "app":
            let sub = try text(rest.next(), missing: "app command (add, set or remove)", line: line)
            switch sub {
            case "add":
                let name = try appName(rest.next(), line: line)
                return .appAdd(name: name, options: try options(Array(IteratorSequence(rest)), line: line))
            case "set":
                let name = try appName(rest.next(), line: line)
                let options = try options(Array(IteratorSequence(rest)), line: line)
                guard options != AppOptions() else {
                    throw .missingArgument(
                        "option to change (--filter, --location, --limit, --uid, --grants-expire, --representation, --quality or --metadata)",
                        line: line)
                }
                return .appSet(name: name, options: options)
            case "remove":
                return .appRemove(name: try lastAppName(&rest, line: line))
            default:
                throw .unknownAppCommand(sub, line: line)
            }
        case "select", "deselect":
            let app = try appName(rest.next(), line: line)
            return try selection(verb, app: app, Array(IteratorSequence(rest)), line: line)
        case "once":
            let sub = try text(rest.next(), missing: "once command (begin or end)", line: line)
            guard sub == "begin" || sub == "end" else { throw .unknownCommand("once " + sub, line: line) }
            let app = try appName(rest.next(), line: line)
            let ownerText = try text(rest.next(), missing: "run owner (PID:START:BOOT-ID)", line: line)
            guard let owner = RunOwner(ownerText) else {
                throw .badOptionValue(option: PickerOption.once.rawValue, value: ownerText, line: line)
            }
            try noMore(&rest, line: line)
            return sub == "begin" ? .onceBegin(app: app, owner: owner) : .onceEnd(app: app, owner: owner)
        case "clear":
            return .clear(app: try lastAppName(&rest, line: line))
        default:
            throw .unknownCommand(verb, line: line)
        }
    }

    /// The words of `select`/`deselect` after the app name: options (before a `--`), then
    /// targets; `--where` and `--rule` take no targets.
    private static func selection(_ verb: String, app: String, _ words: [PickerToken], line: Int) throws(PickerError) -> PickerCommand {
        let allowed: Set<PickerOption> = verb == "select" ? [.where, .rule, .for, .until, .once] : [.rule]
        var values: [PickerOption: PickerToken] = [:]
        var targetWords: [PickerToken] = []
        var index = 0
        var optionsEnded = false
        while index < words.count {
            let word = words[index]
            index += 1
            guard !optionsEnded, word.bytes.starts(with: Array("--".utf8)) else {
                targetWords.append(word)
                continue
            }
            if word.bytes.count == 2 {
                optionsEnded = true
                continue
            }
            let text = String(decoding: word.bytes, as: UTF8.self)
            let name = text.firstIndex(of: "=").map { String(text[..<$0]) } ?? text
            guard let option = PickerOption(rawValue: name), allowed.contains(option) else { throw .unknownOption(name, line: line) }
            guard values[option] == nil else { throw .repeatedOption(name, line: line) }
            if name.utf8.count < word.bytes.count {
                values[option] = PickerToken(bytes: Array(word.bytes.dropFirst(name.utf8.count + 1)), line: word.line, column: word.column)
            } else {
                guard index < words.count else { throw .missingOptionValue(name, line: line) }
                values[option] = words[index]
                index += 1
            }
        }
        if values[.where] != nil, values[.rule] != nil { throw .conflictingOptions("--where", "--rule", line: line) }
        if values[.for] != nil, values[.until] != nil { throw .conflictingOptions("--for", "--until", line: line) }
        var grant = GrantOptions()
        for option in [PickerOption.for, .until] {
            if let word = values[option] { grant.lifetime = try lifetime(option, word, line: line) }
        }
        if let word = values[.once] {
            guard let text = word.text else { throw .notUTF8(line: line) }
            guard let owner = RunOwner(text) else { throw .badOptionValue(option: "--once", value: text, line: line) }
            grant.once = owner
        }
        for option in [PickerOption.where, .rule] {
            guard let word = values[option] else { continue }
            if let extra = targetWords.first { throw .unexpectedArgument(String(decoding: extra.bytes, as: UTF8.self), line: line) }
            if verb == "deselect" {
                guard let text = word.text else { throw .notUTF8(line: line) }
                return .deselectRule(app: app, filter: text)
            }
            let parsed = try filter(word, line: line)
            if option == .rule { return .selectRule(app: app, filter: parsed, grant: grant) }
            return grant == GrantOptions()
                ? .selectWhere(app: app, filter: parsed) : .selectWhereWith(app: app, filter: parsed, grant: grant)
        }
        let targets = try targets(targetWords, line: line)
        if verb == "deselect" { return .deselect(app: app, targets: targets) }
        return grant == GrantOptions() ? .select(app: app, targets: targets) : .selectWith(app: app, targets: targets, grant: grant)
    }

    /// The lifetime `--for` (a duration) or `--until` (a date) gives a grant.
    private static func lifetime(_ option: PickerOption, _ word: PickerToken, line: Int) throws(PickerError) -> GrantLifetime {
        guard let text = word.text else { throw .notUTF8(line: line) }
        do throws(ExpiryError) {
            return option == .for ? .seconds(try ExpiryParser.seconds(text)) : .until(try ExpiryParser.nanoseconds(text))
        } catch {
            throw .invalidExpiry(option: option.rawValue, error, line: line)
        }
    }

    /// The text of a word that must be there (`missing` says what it is when it is not)
    /// and must be UTF-8.
    private static func text(_ token: PickerToken?, missing: String, line: Int) throws(PickerError) -> String {
        guard let token else { throw .missingArgument(missing, line: line) }
        guard let text = token.text else { throw .notUTF8(line: line) }
        return text
    }

    private static func appName(_ token: PickerToken?, line: Int) throws(PickerError) -> String {
        let name = try text(token, missing: "app name", line: line)
        guard AppName.isValid(name) else { throw .invalidAppName(name, line: line) }
        return name
    }

    /// The app name as the command's last word.
    private static func lastAppName(_ rest: inout IndexingIterator<[PickerToken]>, line: Int) throws(PickerError) -> String {
        let name = try appName(rest.next(), line: line)
        try noMore(&rest, line: line)
        return name
    }

    private static func noMore(_ rest: inout IndexingIterator<[PickerToken]>, line: Int) throws(PickerError) {
        if let extra = rest.next() { throw .unexpectedArgument(String(decoding: extra.bytes, as: UTF8.self), line: line) }
    }

    private static func targets(_ words: [PickerToken], line: Int) throws(PickerError) -> [PickerTarget] {
        let targets = words.map { PickerTarget(bytes: $0.bytes) }
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
                    if !PickerOption.appOptions.contains(where: { $0.rawValue == name }) {
                        throw .unknownOption(name, line: line)
                    }
                    throw .missingOptionValue(name, line: line)
                }
                valueWord = words[index]
                index += 1
            }
            guard let option = PickerOption(rawValue: name), PickerOption.appOptions.contains(option) else {
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
            case .grantsExpire:
                if value == "none" {
                    result.grantsExpire = GrantsExpireSetting.none
                } else {
                    do throws(ExpiryError) {
                        result.grantsExpire = .seconds(try ExpiryParser.seconds(value))
                    } catch {
                        throw .invalidExpiry(option: name, error, line: line)
                    }
                }
            case .representation:
                guard let representation = Representation(rawValue: value) else { throw bad }
                result.representation = representation
            case .quality:
                guard let quality = JPEGQualityText.parse(value) else { throw bad }
                result.quality = quality
            case .filter, .where, .rule, .for, .until, .once:
                break
            }
        }
        return result
    }
}
