/// What comes next on a command line, for the zsh and fish scripts, which ask the binary
/// (`photofs completion candidates -- WORDS... CURRENT`) instead of carrying the usage
/// tables in shell code as the bash script does.
extension Completion {
    /// The kinds of the word after `words` (the words after `photofs`, without the one
    /// being typed), and the options among them that choose a catalog (`--catalog PATH`).
    static func next(after words: [String], commands: [Command]) -> (kinds: [Kind], catalog: [String: [String]]) {
        guard let name = words.first else { return ([.words(commands.map(\.name) + ["help"])], [:]) }
        if name == "help" { return (words.count == 1 ? [.words(commands.map(\.name) + HelpText.topics.map(\.name))] : [], [:]) }
        guard let command = commands.first(where: { $0.name == name }) else { return ([], [:]) }
        let options = options(of: command)
        var catalog: [String: [String]] = [:]
        var positionals: [String] = []
        var dashdash = false
        var index = 1
        while index < words.count {
            let word = words[index]
            index += 1
            if dashdash || !word.hasPrefix("-") || word == "-" || isNegatedFilterWord(word) {
                positionals.append(word)
                continue
            }
            if word == "--" {
                dashdash = true
                positionals.append(word)
                continue
            }
            guard let option = options.first(where: { $0.name == word }), let value = option.value else { continue }
            guard index < words.count else { return ([value], catalog) }
            let key = word == "-L" ? "library" : String(word.dropFirst(2))
            if key == "library" || key == "catalog" { catalog[key] = [words[index]] }
            index += 1
        }
        var kinds: [Kind] = []
        for usage in usages(of: command) {
            let slots = usage.slots
            let matches = positionals.indices.allSatisfy { position in
                if position >= slots.count { return slots.last?.repeats == true }
                if case .literal(let word) = slots[position].kind { return positionals[position] == word }
                return true
            }
            guard matches else { continue }
            if positionals.count < slots.count {
                kinds.append(slots[positionals.count].kind)
            } else if let last = slots.last, last.repeats {
                kinds.append(last.kind)
            }
        }
        var unique: [Kind] = []
        for kind in kinds where !unique.contains(kind) { unique.append(kind) }
        return (unique, catalog)
    }

    /// A filter word with its negating dash (`-has:location`): a positional word, not an option.
    static func isNegatedFilterWord(_ word: String) -> Bool {
        word.hasPrefix("-") && !word.hasPrefix("--") && word.contains(":")
    }

    /// The one-line help of each option of a command (usage-only options have none).
    static func optionHelp(of command: Command) -> [(long: String, short: Character?, takesValue: Bool, help: String)] {
        var result = (command.options + [.flag("help", short: "h", "show this help")]).map {
            (long: $0.name, short: $0.short, takesValue: $0.valueName != nil, help: $0.help)
        }
        for option in options(of: command) where option.name.hasPrefix("--") {
            let long = String(option.name.dropFirst(2))
            if !result.contains(where: { $0.long == long }) { result.append((long, nil, option.value != nil, "")) }
        }
        return result
    }
}
