import PhotoCore

/// `photofs version`: prints the version.
enum VersionCommand {
    static let command = Command(
        name: "version", summary: "print the version", usage: ["version"], details: "", options: []
    ) { _, environment throws(CLIError) in
        environment.output.line("photofs \(PhotoCoreVersion.version)")
        return .success
    }
}
