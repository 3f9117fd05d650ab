/// One `photofs` subcommand: its name, help text, option table and what it does.
///
/// Every command is a row in `CommandTable.all`; help, the man page and shell completion
/// are generated from the same rows so they cannot drift apart.
struct Command: Sendable {
    let name: String
    /// One line for the command list.
    let summary: String
    /// The usage line(s) after `photofs `, e.g. `index [--catalog PATH] LIBRARY`.
    let usage: [String]
    /// Paragraphs shown by `photofs help NAME`.
    let details: String
    let options: [OptionSpec]
    /// Whether options the table does not know are kept as positionals, for commands that
    /// forward their words to the picker language (`select`, `app`).
    var passesUnknownOptions = false
    let run: @Sendable (ParsedArguments, Environment) throws(CLIError) -> ExitCode
}

/// What a command may touch of the outside world, built once in `main`.
struct Environment: Sendable {
    /// The process environment variables.
    let variables: [String: String]
    /// Whether stderr is a terminal (progress bars, tables).
    let stderrIsTerminal: Bool
    let stdoutIsTerminal: Bool
    /// The path of the running executable, to start the daemon child.
    let executablePath: String
    let output: Output
}
