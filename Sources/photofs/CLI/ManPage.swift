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
            show help (also: photofs help COMMAND)
            .TP
            \(escape("-V, --version"))
            print the version
            .SH EXIT STATUS
            .nf
            \(ExitCode.documentation.split(separator: "\n").dropFirst().map { escape(String($0).trimmingLeadingSpaces()) }.joined(separator: "\n"))
            .fi
            .SH ENVIRONMENT
            .TP
            .B PHOTOFS_LIBRARY
            the library commands work on when neither \\-\\-library nor \\-\\-catalog is given
            .TP
            .B XDG_DATA_HOME
            catalogs live in $XDG_DATA_HOME/photofs/catalogs (default ~/.local/share)
            .SH FILES
            .TP
            .I MOUNTPOINT/.picker
            the control file: writes select and deselect, a fresh read lists the apps
            .TP
            .I MOUNTPOINT/apps/APP
            an app's limited view
            .TP
            .I /sbin/mount.fuse.photofs
            the mount(8) helper for fstab lines of type fuse.photofs
            .SH SEE ALSO
            .BR mount (8),
            .BR fstab (5),
            .BR fusermount3 (1),
            .BR bwrap (1),
            .BR systemd.service (5)

            """
        return page
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
