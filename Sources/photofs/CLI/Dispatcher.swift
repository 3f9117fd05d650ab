import PhotoCore

/// Turns `argv` into one command run and an exit code; the only place that prints a
/// `CLIError`.
struct Dispatcher {
    let environment: Environment

    func run(_ arguments: [String]) -> ExitCode {
        let output = environment.output
        guard let first = arguments.first else {
            output.err(HelpText.overview(CommandTable.all))
            return .usage
        }
        switch first {
        case "-h", "--help":
            output.out(HelpText.overview(CommandTable.all))
            return .success
        case "-V", "--version":
            output.line("photofs \(PhotoCoreVersion.version)")
            return .success
        case "help":
            guard arguments.count > 1 else {
                output.out(HelpText.overview(CommandTable.all))
                return .success
            }
            if let topic = HelpText.topics.first(where: { $0.name == arguments[1] }) {
                output.out(topic.text())
                return .success
            }
            guard let command = CommandTable.named(arguments[1]) else {
                output.error("unknown command or topic '\(arguments[1])'; run 'photofs --help' for the list.")
                return .usage
            }
            output.out(HelpText.command(command))
            return .success
        default:
            break
        }
        guard let command = CommandTable.named(first) else {
            output.error("unknown command '\(first)'; run 'photofs --help' for the list.")
            return .usage
        }
        let rest = Array(arguments.dropFirst())
        if rest.prefix(while: { $0 != "--" }).contains(where: { $0 == "-h" || $0 == "--help" }) {
            output.out(HelpText.command(command))
            return .success
        }
        do throws(CLIError) {
            let parsed = try ArgumentParser.parse(
                rest, options: command.options, commandName: command.name, passUnknown: command.passesUnknownOptions)
            return try command.run(parsed, environment)
        } catch {
            output.error(error.message)
            return error.exitCode
        }
    }
}
