import DaemonClient
/// `photofs unmount MOUNTPOINT`: unmounts a photofs mount (also a stale one); the daemon
/// then exits by itself.
enum UnmountCommand {
    static let command = Command(
        name: "unmount",
        summary: "unmount a mounted library",
        usage: ["unmount MOUNTPOINT"],
        details: "Runs 'fusermount3 -u MOUNTPOINT'. Works on a stale mount left by a daemon that died.",
        options: []
    ) { arguments, environment throws(CLIError) in
        let mountpoint = try arguments.positional(0, "MOUNTPOINT")
        guard arguments.positionals.count == 1 else { throw .usage("unmount takes one MOUNTPOINT.") }
        guard MountTable.current().entry(at: mountpoint) != nil else {
            throw .notFound("\(mountpoint) is not a photofs mount; 'photofs status' lists them.")
        }
        guard let tool = MountChecks.fusermount(environment) else {
            throw .missingDependency("fusermount3 was not found on the PATH: install the fuse3 package.")
        }
        guard Spawn.run([tool, "-u", mountpoint]) == 0 else {
            throw .failure(
                "could not unmount \(mountpoint) (see the message above); close programs using it, or use 'fusermount3 -u -z \(mountpoint)'."
            )
        }
        environment.output.line("unmounted \(mountpoint)")
        return .success
    }
}
