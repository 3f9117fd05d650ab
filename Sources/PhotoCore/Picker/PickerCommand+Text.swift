extension PickerCommand {
    /// The command as one line of the picker language (bytes, since targets may not be
    /// UTF-8), quoted so that `PickerCommandParser` reads back exactly this command: how the
    /// CLI forwards `photofs select ...` to a mounted `.picker`.
    public var serialized: [UInt8] {
        var words: [[UInt8]]
        switch self {
        case .appAdd(let name, let options):
            words = [w("app"), w("add"), w(name)] + Self.words(options)
        case .appSet(let name, let options):
            words = [w("app"), w("set"), w(name)] + Self.words(options)
        case .appRemove(let name):
            words = [w("app"), w("remove"), w(name)]
        case .select(let app, let targets):
            words = [w("select"), w(app), w("--")] + targets.map(\.bytes)
        case .selectWhere(let app, let filter):
            words = [w("select"), w(app), w("--where"), w(filter.source)]
        case .deselect(let app, let targets):
            words = [w("deselect"), w(app), w("--")] + targets.map(\.bytes)
        case .clear(let app):
            words = [w("clear"), w(app)]
        case .selectWith(let app, let targets, let grant):
            words = [w("select"), w(app)] + Self.words(grant) + [w("--")] + targets.map(\.bytes)
        case .selectWhereWith(let app, let filter, let grant):
            words = [w("select"), w(app), w("--where"), w(filter.source)] + Self.words(grant)
        case .selectRule(let app, let filter, let grant):
            words = [w("select"), w(app), w("--rule"), w(filter.source)] + Self.words(grant)
        case .deselectRule(let app, let filter):
            words = [w("deselect"), w(app), w("--rule"), w(filter)]
        case .onceBegin(let app, let owner):
            words = [w("once"), w("begin"), w(app), w(owner.description)]
        case .onceEnd(let app, let owner):
            words = [w("once"), w("end"), w(app), w(owner.description)]
        }
        return Array(words.map(Self.quote).joined(separator: [UInt8(ascii: " ")]))
    }

    private static func words(_ options: AppOptions) -> [[UInt8]] {
        var words: [[UInt8]] = []
        if let filter = options.filter { words += [w("--filter"), w(filter.source)] }
        if let location = options.location { words += [w("--location"), w(location.rawValue)] }
        if let limit = options.limit { words += [w("--limit"), w(String(limit))] }
        if let metadata = options.metadata { words += [w("--metadata"), w(metadata.rawValue)] }
        switch options.uid {
        case .none?: words += [w("--uid"), w("none")]
        case .uid(let uid)?: words += [w("--uid"), w(String(uid))]
        case nil: break
        }
        switch options.grantsExpire {
        case .none?: words += [w("--grants-expire"), w("none")]
        case .seconds(let seconds)?: words += [w("--grants-expire"), w("\(seconds)s")]
        case nil: break
        }
        if let representation = options.representation { words += [w("--representation"), w(representation.rawValue)] }
        if let quality = options.quality { words += [w("--quality"), w(JPEGQualityText.text(quality))] }
        return words
    }

    private static func words(_ grant: GrantOptions) -> [[UInt8]] {
        var words: [[UInt8]] = []
        switch grant.lifetime {
        case .seconds(let seconds)?: words += [w("--for"), w("\(seconds)s")]
        case .until(let nanoseconds)?: words += [w("--until"), w(GrantOptions.untilText(nanoseconds))]
        case nil: break
        }
        if let once = grant.once { words += [w("--once"), w(once.description)] }
        return words
    }

    /// Bare when every byte is plainly safe, else single-quoted (`'` becomes `'\''`).
    static func quote(_ word: [UInt8]) -> [UInt8] {
        let safe =
            !word.isEmpty && word.first != UInt8(ascii: "#")
            && word.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || "._-/:+,=@%".utf8.contains(b)
            }
        if safe { return word }
        var out: [UInt8] = [UInt8(ascii: "'")]
        for b in word {
            if b == UInt8(ascii: "'") { out += Array("'\\''".utf8) } else { out.append(b) }
        }
        out.append(UInt8(ascii: "'"))
        return out
    }
}

private func w(_ text: String) -> [UInt8] { Array(text.utf8) }

extension PickerCommandParser {
    /// Parses a command given as separate arguments (the CLI's argv after `photofs`):
    /// no quoting is interpreted, each argument is one word. Errors carry line 0.
    public static func command(arguments: [[UInt8]]) throws(PickerError) -> PickerCommand {
        guard !arguments.isEmpty else { throw .missingArgument("command", line: 0) }
        return try command(arguments.enumerated().map { PickerToken(bytes: $0.element, line: 0, column: $0.offset + 1) })
    }
}
