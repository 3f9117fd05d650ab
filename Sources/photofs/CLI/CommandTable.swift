/// Every subcommand, in the order `photofs --help` lists them.
enum CommandTable {
    static let all: [Command] = [
        IndexCommand.command,
        LsCommand.command,
        ShowCommand.command,
        VersionCommand.command,
        GenerateCommand.command,
        DemoCommand.command,
    ]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }
}
