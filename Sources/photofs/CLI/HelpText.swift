import PhotoCore

/// Renders help for the whole tool and for one command from the command table; the man
/// page is generated from the same text.
enum HelpText {
    static func overview(_ commands: [Command]) -> String {
        let width = (commands.map(\.name.count).max() ?? 8) + 2
        var text = """
            photofs \(PhotoCoreVersion.version): a photo library as a FUSE filesystem with limited, \
            location-stripped views per app.

            Usage: photofs COMMAND [OPTIONS] [ARGUMENTS]

            Commands:

            """
        for command in commands {
            text += "  " + command.name.padding(width) + command.summary + "\n"
        }
        text += """

            Global options:
              -h, --help     show help (also: photofs help COMMAND)
              -V, --version  print the version

            Run 'photofs help COMMAND' for a command's options, and 'photofs help TOPIC' for
            one of: \(topics.map(\.name).joined(separator: ", ")).


            """
        text += ExitCode.documentation + "\n"
        return text
    }

    /// The help topics beside the commands, each rendered from its reference table.
    static let topics: [(name: String, summary: String, text: @Sendable () -> String)] = [
        ("filter", "the filter language", { FilterReference.help }),
        ("picker", "the .picker command language", { PickerReference.help }),
        ("mount-options", "the -o options of mount -t fuse.photofs and fstab", { MountOptionReference.help }),
        ("environment", "environment variables and files", { EnvironmentReference.help }),
    ]

    static func command(_ command: Command) -> String {
        var text = command.usage.enumerated().map { ($0.offset == 0 ? "Usage: " : "       ") + "photofs " + $0.element }.joined(
            separator: "\n")
        text += "\n\n" + command.summary + "\n"
        if !command.details.isEmpty { text += "\n" + command.details + "\n" }
        let options = command.options + [.flag("help", short: "h", "show this help")]
        let labels = options.map(label)
        let width = (labels.map(\.count).max() ?? 10) + 2
        text += "\nOptions:\n"
        for (option, label) in zip(options, labels) {
            text += "  " + label.padding(width) + option.help + "\n"
        }
        return text
    }

    static func label(_ option: OptionSpec) -> String {
        var label = option.short.map { "-\($0), " } ?? "    "
        label += "--" + option.name
        if let value = option.valueName { label += " " + value }
        return label
    }
}

extension String {
    /// The string padded with spaces to at least `width` characters.
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
