import Glibc

/// `photofs status`: lists the active photofs mounts and flags stale ones.
enum StatusCommand {
    static let command = Command(
        name: "status",
        summary: "list active mounts",
        usage: ["status"],
        details: "One line per photofs mount: library, mountpoint and whether its daemon still answers.",
        options: []
    ) { arguments, environment throws(CLIError) in
        guard arguments.positionals.isEmpty else { throw .usage("status takes no arguments.") }
        let entries = MountTable.current().entries
        if entries.isEmpty {
            environment.output.line("no photofs mounts")
            return .success
        }
        for entry in entries {
            var status = stat()
            let alive = stat(entry.mountpoint, &status) == 0 || errno != ENOTCONN
            let state = alive ? "mounted" : "stale (daemon gone): run 'photofs unmount \(entry.mountpoint)'"
            environment.output.line("\(entry.library) on \(entry.mountpoint): \(state)")
        }
        return .success
    }
}
