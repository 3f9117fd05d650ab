/// `photofs man`: prints photofs(1) in roff, generated from the command table and help texts.
enum ManCommand {
    static let command = Command(
        name: "man",
        summary: "print the photofs(1) man page (roff)",
        usage: ["man"],
        details: "Built from the same text as 'photofs --help' and 'photofs help COMMAND'. Read it with: photofs man | man -l -",
        options: []
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.isEmpty else { throw .usage("man takes no arguments.") }
        environment.output.out(ManPage.render(CommandTable.all))
        return .success
    }
}
