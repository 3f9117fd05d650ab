import PhotoCatalog
import PhotoCore

/// `photofs completion bash`: prints the bash completion script; `completion apps` and
/// `completion assets PREFIX` are what that script asks at completion time.
enum CompletionCommand {
    static let command = Command(
        name: "completion",
        summary: "print the bash completion script (and the names it completes)",
        usage: [
            "completion bash",
            "completion apps [--library DIR | --catalog PATH]",
            "completion assets [--library DIR | --catalog PATH] [PREFIX]",
        ],
        details: """
            'photofs completion bash' prints a script that completes commands, options, app names \
            and asset paths; load it with: source <(photofs completion bash), or save it as \
            ~/.local/share/bash-completion/completions/photofs. 'completion apps' prints the app \
            names and 'completion assets PREFIX' the library paths starting with PREFIX, up to the \
            next '/', one per line (used by the script).
            """,
        options: LibraryContext.options
    ) { arguments, environment throws(CLIError) in
        let verb = try arguments.positional(0, "bash, apps or assets")
        let output = environment.output
        switch verb {
        case "bash":
            guard arguments.positionals.count == 1 else { throw .usage("completion bash takes no arguments.") }
            output.out(Completion.bash(CommandTable.all))
        case "apps":
            let snapshot = try snapshot(arguments, environment)
            for name in snapshot.apps.keys.sorted() { output.line(name) }
        case "assets":
            guard arguments.positionals.count <= 2 else { throw .usage("completion assets takes one PREFIX.") }
            let prefix = arguments.positionals.count == 2 ? arguments.positionals[1] : ""
            let snapshot = try snapshot(arguments, environment)
            for candidate in candidates(snapshot.assets.map(\.path.display), prefix: prefix) { output.line(candidate) }
        default:
            throw .usage("unknown completion '\(verb)': use bash, apps or assets.")
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

    private static func snapshot(_ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> LibrarySnapshot {
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        do throws(CatalogError) {
            return try context.catalog.snapshot()
        } catch {
            throw .failure("cannot read the catalog \(context.catalogPath): \(error).")
        }
    }
}
