/// One option a command accepts: `--name VALUE` or a `--flag`, with optional short form.
struct OptionSpec: Sendable {
    let name: String
    let short: Character?
    /// The placeholder shown in help (`PATH`), or nil for a flag without a value.
    let valueName: String?
    let help: String

    static func flag(_ name: String, short: Character? = nil, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help)
    }

    static func value(_ name: String, short: Character? = nil, _ valueName: String, _ help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help)
    }
}

/// What a command line said, after checking it against a command's option table.
struct ParsedArguments: Sendable {
    /// Options by long name; flags map to "", repeated options keep every value.
    var options: [String: [String]] = [:]
    var positionals: [String] = []

    func flag(_ name: String) -> Bool { options[name] != nil }

    func value(_ name: String) -> String? { options[name]?.last }

    func values(_ name: String) -> [String] { options[name] ?? [] }

    /// The positional argument at `index`, or a usage error naming it.
    func positional(_ index: Int, _ name: String) throws(CLIError) -> String {
        guard index < positionals.count else { throw .usage("missing argument \(name)") }
        return positionals[index]
    }
}

/// Parses a command's arguments against its option table. `--` ends options; `-abc` is
/// not grouped (no command needs it), `--name=value` and `--name value` both work.
enum ArgumentParser {
    static func parse(_ arguments: [String], options specs: [OptionSpec], commandName: String, passUnknown: Bool = false) throws(CLIError)
        -> ParsedArguments
    {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || argument == "-" || !argument.hasPrefix("-") {
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                if passUnknown { parsed.positionals.append(argument) }
                continue
            }
            var name: Substring
            var inlineValue: String?
            let spec: OptionSpec?
            if argument.hasPrefix("--") {
                name = argument.dropFirst(2)
                if let equals = name.firstIndex(of: "=") {
                    inlineValue = String(name[name.index(after: equals)...])
                    name = name[..<equals]
                }
                spec = specs.first { $0.name == name }
            } else {
                guard argument.count == 2, let letter = argument.last else {
                    throw .usage(unknownOption(argument, commandName: commandName))
                }
                spec = specs.first { $0.short == letter }
            }
            guard let spec else {
                if passUnknown {
                    parsed.positionals.append(argument)
                    continue
                }
                throw .usage(unknownOption(argument, commandName: commandName))
            }
            if spec.valueName == nil {
                guard inlineValue == nil else { throw .usage("option --\(spec.name) takes no value") }
                parsed.options[spec.name, default: []].append("")
            } else if let inlineValue {
                parsed.options[spec.name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else { throw .usage("option --\(spec.name) needs a value (\(spec.valueName ?? "VALUE"))") }
                parsed.options[spec.name, default: []].append(arguments[index])
                index += 1
            }
        }
        return parsed
    }

    /// The message for an option the table lacks; a negated filter term (`-has:location`)
    /// looks like one, so it gets the way to pass it.
    static func unknownOption(_ argument: String, commandName: String) -> String {
        let message = "unknown option '\(argument)' for '\(commandName)'"
        if argument.contains(":") {
            return message + "; a filter term that starts with '-' goes after '--': photofs \(commandName) -- '\(argument)'"
        }
        return message + "; see 'photofs help \(commandName)'"
    }
}
