import PhotoCatalog
import PhotoCore

/// `photofs completion bash|zsh|fish`: prints a completion script; `completion apps`,
/// `completion assets PREFIX` and `completion candidates -- WORDS...` are what those
/// scripts ask at completion time.
enum CompletionCommand {
    static let command = Command(
        name: "completion",
        summary: "print the bash, zsh or fish completion script (and the names it completes)",
        usage: [
            "completion bash",
            "completion zsh",
            "completion fish",
            "completion apps [--library DIR | --catalog PATH]",
            "completion assets [--library DIR | --catalog PATH] [PREFIX]",
            "completion candidates -- WORD...",
        ],
        details: """
            'photofs completion bash' prints a script that completes commands, options, app names \
            and asset paths; load it with: source <(photofs completion bash), or save it as \
            ~/.local/share/bash-completion/completions/photofs. 'completion apps' prints the app \
            names and 'completion assets PREFIX' the library paths starting with PREFIX, up to the \
            next '/', one per line (used by the script). 'photofs completion zsh' and 'photofs \
            completion fish' print the scripts for those shells; 'completion candidates -- WORD... \
            CURRENT' prints what may follow the words after 'photofs' and start with CURRENT (app names, \
            asset paths, fixed words; :dir, :file or :command where the shell completes itself).
            """,
        options: LibraryContext.options
    ) { arguments, environment throws(CLIError) in
        let verb = try arguments.positional(0, "bash, apps or assets")
        let output = environment.output
        switch verb {
        case "bash", "zsh", "fish":
            guard arguments.positionals.count == 1 else { throw .usage("completion \(verb) takes no arguments.") }
            let commands = CommandTable.all
            output.out(verb == "bash" ? Completion.bash(commands) : verb == "zsh" ? Completion.zsh(commands) : Completion.fish(commands))
        case "candidates":
            let words = Array(arguments.positionals.dropFirst())
            for candidate in candidates(words: words.dropLast(), current: words.last ?? "", environment: environment) {
                output.line(candidate)
            }
        case "apps":
            let snapshot = try snapshot(arguments, environment)
            for name in snapshot.apps.keys.sorted() { output.line(name) }
        case "assets":
            guard arguments.positionals.count <= 2 else { throw .usage("completion assets takes one PREFIX.") }
            let prefix = arguments.positionals.count == 2 ? arguments.positionals[1] : ""
            let snapshot = try snapshot(arguments, environment)
            for candidate in candidates(snapshot.assets.map(\.path.display), prefix: prefix) { output.line(candidate) }
        default:
            throw .usage("unknown completion '\(verb)': use bash, zsh, fish, apps, assets or candidates.")
        }
        return .success
    }

    /// The paths starting with `prefix`, each cut after the next `/` (a folder is offered
    /// once, as the shell offers directories); sorted, without duplicates or newlines.
    static func candidates(_ paths: [String], prefix: String) -> [String] {
        var found = Set<String>()
        for path in paths where path.hasPrefix(prefix) && !path.contains("\n") {
            let rest = path.dropFirst(prefix.count)
            if let slash = rest.firstIndex(of: "/") {
                found.insert(prefix + rest[...slash])
            } else {
                found.insert(path)
            }
        }
        return found.sorted()
    }

    /// What may follow `words` and starts with `current`, one per line: fixed words, app
    /// names and asset paths (from the catalog the words name, if it can be read), and
    /// `:dir`, `:file`, `:command` for what the shell completes itself.
    static func candidates(words: ArraySlice<String>, current: String, environment: Environment) -> [String] {
        let (kinds, catalog) = Completion.next(after: Array(words), commands: CommandTable.all)
        var arguments = ParsedArguments()
        arguments.options = catalog
        var found: [String] = []
        for kind in kinds {
            switch kind {
            case .none: break
            case .literal(let word): found.append(word)
            case .words(let words): found += words
            case .directory: found.append(":dir")
            case .file: found.append(":file")
            case .command: found.append(":command")
            case .filter: found += Completion.filterCandidates(current)
            case .app: found += ((try? snapshot(arguments, environment))?.apps.keys.sorted()) ?? []
            case .asset:
                if let snapshot = try? snapshot(arguments, environment) {
                    found += candidates(snapshot.assets.map(\.path.display), prefix: current)
                }
            }
        }
        return found.filter { $0.hasPrefix(":") || $0.hasPrefix(current) }
    }

    private static func snapshot(_ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> LibrarySnapshot {
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        do throws(CatalogError) {
            return try context.catalog.snapshot()
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
    }
}
