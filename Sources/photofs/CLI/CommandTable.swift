/// Every subcommand, in the order `photofs --help` lists them.
enum CommandTable {
    static let all: [Command] = [
        IndexCommand.command,
        MountCommand.command,
        UnmountCommand.command,
        StatusCommand.command,
        AppCommand.command,
        SelectCommands.select,
        SelectCommands.deselect,
        SelectCommands.clear,
        LsCommand.command,
        ShowCommand.command,
        ThumbnailsCommand.command,
        TranscodeCommand.command,
        DemoCommand.command,
        GenerateCommand.command,
        SandboxCommand.command,
        PickCommand.command,
        RequestsCommand.command,
        PortalCommand.command,
        LogCommand.command,
        ReportCommand.command,
        CompletionCommand.command,
        ManCommand.command,
        VersionCommand.command,
    ]

    static func named(_ name: String) -> Command? { all.first { $0.name == name } }
}
