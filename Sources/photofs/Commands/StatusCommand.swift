import DaemonClient
/// `photofs status`: lists the active photofs mounts and flags stale ones.
enum StatusCommand {
    static let command = Command(
        name: "status",
        summary: "list active mounts",
        usage: ["status [--json]"],
        details: """
            One line per photofs mount: library, mountpoint and whether its daemon still answers. \
            With --json, an array of {"library": DIR, "mountpoint": DIR, "state": "mounted" or "stale"}.
            """,
        options: [.flag("json", "print a JSON array of mounts")]
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.isEmpty else { throw .usage("status takes no arguments.") }
        let entries = MountTable.current().entries.map { entry in (entry, !MountChecks.daemonIsGone(entry.mountpoint)) }
        if arguments.flag("json") {
            environment.output.line(
                AssetFormatting.encode(
                    entries.map { ["library": $0.0.library, "mountpoint": $0.0.mountpoint, "state": $0.1 ? "mounted" : "stale"] }))
            return .success
        }
        if entries.isEmpty {
            environment.output.line("no photofs mounts")
            return .success
        }
        for (entry, alive) in entries {
            let state = alive ? "mounted" : "stale (daemon gone): run 'photofs unmount \(entry.mountpoint)'"
            environment.output.line("\(entry.library) on \(entry.mountpoint): \(state)")
        }
        return .success
    }
}
