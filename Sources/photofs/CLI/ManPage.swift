import PhotoCore

/// Renders photofs(1) in roff from the same command table and texts that `--help` prints,
/// so the man page and the help cannot drift apart.
enum ManPage {
    static func render(_ commands: [Command]) -> String {
        var page = """
            .TH PHOTOFS 1 "" "photofs \(escape(PhotoCoreVersion.version))" "User Commands"
            .SH NAME
            photofs \\- \(escape(tagline))
            .SH SYNOPSIS
            .B photofs
            .I COMMAND
            [\\fIOPTIONS\\fR] [\\fIARGUMENTS\\fR]
            .br
            .B photofs help
            .I COMMAND
            .SH DESCRIPTION
            \(escape(description))
            .SH COMMANDS

            """
        for command in commands { page += section(command) }
        page += """
            .SH GLOBAL OPTIONS
            .TP
            \(escape("-h, --help"))
            show help (also: photofs help COMMAND, photofs help TOPIC)
            .TP
            \(escape("-V, --version"))
            print the version

            """
        page += mountOptions() + filterLanguage() + pickerLanguage() + requestFile()
        page += """
            .SH EXIT STATUS
            .nf
            \(ExitCode.documentation.split(separator: "\n").dropFirst().map { escape(String($0).trimmingLeadingSpaces()) }.joined(separator: "\n"))
            .fi
            .PP
            The mount helper exits as mount(8) expects: 0 mounted, 1 a bad option or invocation, 32 the mount failed.

            """
        page += ".SH ENVIRONMENT\n" + EnvironmentReference.variables.map { ".TP\n.B \(escape($0.name))\n\(escape($0.meaning))\n" }.joined()
        page += ".SH FILES\n" + EnvironmentReference.files.map { ".TP\n.I \(escape($0.path))\n\(escape($0.meaning))\n" }.joined()
        page += """
            .SH SEE ALSO
            .BR mount (8),
            .BR fstab (5),
            .BR fusermount3 (1),
            .BR bwrap (1),
            .BR journalctl (1),
            .BR systemd.service (5)

            """
        return page
    }

    /// MOUNT OPTIONS: the mount helper's `-o` options, as `photofs help mount-options`.
    static func mountOptions() -> String {
        var text = """
            .SH MOUNT OPTIONS
            .B mount \\-t fuse.photofs
            .I LIBRARY MOUNTPOINT
            .B \\-o
            .I OPTIONS
            and the fourth field of an fstab line of type fuse.photofs take:

            """
        for row in MountOptionReference.rows {
            text += ".TP\n.B \(escape(row.options.joined(separator: " ")))\n\(escape(row.effect))\n"
        }
        return text + ".PP\n\(escape(MountOptionReference.rules))\n"
    }

    /// FILTER LANGUAGE: syntax, one entry per key, examples, as `photofs help filter`.
    static func filterLanguage() -> String {
        var text = ".SH FILTER LANGUAGE\n\(escape(FilterReference.syntax))\n"
        for key in FilterKey.allCases {
            let (value, matches) = FilterReference.row(key)
            text += ".TP\n.BI \"\(escape(key.rawValue)):\" \" \(escape(value))\"\n\(escape(matches))\n"
        }
        text += ".PP\nExamples:\n.nf\n" + FilterReference.examples.map { escape("photofs ls '\($0)'") + "\n" }.joined() + ".fi\n"
        return text
    }

    /// PICKER LANGUAGE: every command, the rules, an example of each, as `photofs help picker`.
    static func pickerLanguage() -> String {
        var text = ".SH PICKER LANGUAGE\nWritten to MOUNTPOINT/.picker (and sent by photofs app, select, deselect and clear):\n"
        text += items(PickerReference.rows)
        for rule in PickerReference.rules { text += ".PP\n\(escape(rule))\n" }
        text += ".PP\nExamples:\n.nf\n"
        text += PickerReference.rows.compactMap(\.example).map { escape(PickerReference.echo($0)) + "\n" }.joined()
        return text + ".fi\n"
    }

    /// A tagged paragraph per row: the synopsis in bold, then its meaning.
    private static func items(_ rows: [ReferenceRow]) -> String {
        rows.map { ".TP\n.B \(escape($0.synopsis))\n\(escape($0.meaning))\n" }.joined()
    }

    /// REQUEST FILE: the `.request` language for app authors, the answer, and `.requests`.
    static func requestFile() -> String {
        var text = ".SH REQUEST FILE\n\(escape(RequestReference.writing))\n"
        text += items(RequestReference.items)
        text += ".PP\nExamples:\n.nf\n"
        text += RequestReference.examples.map { escape("echo '\($0)' > \"$PHOTOFS_DIR/.request\"") + "\n" }.joined()
        text += escape("cat \"$PHOTOFS_DIR/.request\"") + "\n.fi\n"
        text += ".PP\n\(escape(RequestReference.reading))\n.PP\n\(escape(RequestReference.ownerSide))\n"
        return text
    }

    /// The one-line description after the name, as the first line of `photofs --help` says it.
    static let tagline = "a photo library as a FUSE filesystem with limited, location-stripped views per app"

    /// What photofs is, for DESCRIPTION.
    static let description = """
        photofs mounts a photo library read-only as a FUSE filesystem and gives every app a \
        limited view: only the photos granted to it, only those passing the app's filter, and \
        by default with the GPS location stripped on read. Selection is made by writing to the \
        control file MOUNTPOINT/.picker or with photofs select.
        """

    /// One command: usage, summary, details and every option, as `photofs help NAME` has them.
    static func section(_ command: Command) -> String {
        var text = ".SS \(escape(command.name))\n.nf\n"
        for line in command.usage { text += escape("photofs " + line) + "\n" }
        text += ".fi\n.PP\n\(escape(command.summary))\n"
        for paragraph in command.details.split(separator: "\n", omittingEmptySubsequences: true) {
            text += ".PP\n\(escape(String(paragraph)))\n"
        }
        for option in command.options + [.flag("help", short: "h", "show this help")] {
            text += ".TP\n\(escape(HelpText.label(option).trimmingLeadingSpaces()))\n\(escape(option.help))\n"
        }
        return text
    }

    /// Text made safe for roff: backslashes and hyphens escaped, no line read as a request.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var escaped = ""
            for character in line {
                switch character {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                default: escaped.append(character)
                }
            }
            if escaped.hasPrefix(".") || escaped.hasPrefix("'") { escaped = "\\&" + escaped }
            return escaped
        }.joined(separator: "\n")
    }
}

extension String {
    /// The string without leading spaces.
    func trimmingLeadingSpaces() -> String { String(drop { $0 == " " }) }
}
