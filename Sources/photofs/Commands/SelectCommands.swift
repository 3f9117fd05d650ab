import FuseKit
import PhotoCatalog
import PhotoCore

/// `photofs select|deselect|clear APP ...`: change an app's selection, in the picker language.
enum SelectCommands {
    static let select = forwarding(
        "select",
        summary: "grant an app assets (ids, library paths, mount paths, --where FILTER, or a --rule FILTER)",
        usage: [
            "select [--library DIR | --catalog PATH] APP TARGET... [--for DURATION | --until DATE]",
            "select [--library DIR | --catalog PATH] APP --where FILTER [--for DURATION | --until DATE]",
            "select [--library DIR | --catalog PATH] APP --rule FILTER [--for DURATION | --until DATE]",
        ],
        details: """
            A TARGET is an asset id, a path relative to the library, or a path inside the mount. Every \
            target must pass the app's filter (else exit 5, EPERM) and the selection may not pass the \
            app's limit (EDQUOT). All targets are granted, or none. --rule grants every asset matching \
            FILTER and the app's filter, now and later. --for 1h (s, m, h, d, w) or --until \
            2026-12-24T18:00 (local time; Z or +HH:MM for a zone) makes the grant expire; without them \
            the app's --grants-expire applies. Through the mount's picker socket when the \
            library is mounted, straight to the catalog otherwise.
            """
    )

    static let deselect = forwarding(
        "deselect",
        summary: "revoke an app's access to assets (immediate, also for open files)",
        usage: ["deselect [--library DIR | --catalog PATH] APP TARGET...", "deselect [--library DIR | --catalog PATH] APP --rule FILTER"],
        details: """
            Deselecting an asset that is not selected does nothing; deselecting one that a rule grants \
            records an exclusion (select it again to lift it). --rule FILTER removes that rule.
            """
    )

    static let clear = forwarding(
        "clear",
        summary: "revoke all of an app's grants, rules and exclusions",
        usage: ["clear [--library DIR | --catalog PATH] APP"],
        details: ""
    )

    /// The command `verb`, which takes the library options and forwards its words as the
    /// picker command of the same name.
    private static func forwarding(_ verb: String, summary: String, usage: [String], details: String) -> Command {
        Command(
            name: verb, summary: summary, usage: usage, details: details, options: LibraryContext.options, passesUnknownOptions: true
        ) { arguments, environment throws(CLIError) in
            try forward(verb, arguments, environment)
        }
    }

    /// Builds one picker command from the words and sends it.
    static func forward(_ verb: String, _ arguments: ParsedArguments, _ environment: Environment) throws(CLIError) -> ExitCode {
        let words = [verb] + arguments.positionals
        let command: PickerCommand
        do throws(PickerError) {
            command = try PickerCommandParser.command(arguments: words.map(RawArguments.bytes))
        } catch {
            throw PickerClient.cliError(errno: ViewLayerError(error.errnoKind).errno, reason: error.reason)
        }
        let context = try LibraryContext.existing(arguments: arguments, environment: environment)
        try PickerClient(context: context, environment: environment.variables).send(command.serialized)
        return .success
    }
}
