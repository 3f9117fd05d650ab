/// Every subcommand, in the order `photofs --help` lists them.
enum CommandTable {
    static let all: [Command] = [
        VersionCommand.command,
    ]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }
}
