import DaemonCore
import Glibc
import PhotoCatalog
import PhotoCore

/// `photofs run --once APP -- COMMAND`: a one-time run, like Android's one-time permission.
///
/// Before COMMAND starts, this process tells the daemon that a run of APP begins, owned by
/// it (`once begin APP PID:START:BOOT-ID`), and grants the `--select` targets for the run.
/// While the run is on record every grant made for APP (by the person with `photofs
/// select`, or through the app's `.request` answered with `photofs pick`) belongs to it.
/// When COMMAND exits, however it exits, this process ends the run (`once end`), which
/// revokes those grants. Should this process itself be killed, the sandbox dies with it
/// (`--die-with-parent`) and the daemon, which checks each recorded run's process about
/// five times a second, ends the run: the revocation never depends on the child.
enum OnceRun {
    static func run(
        app: String, argv: [String], user: (uid: uid_t, gid: gid_t)?, mountpoint: String, targets: [String], arguments: ParsedArguments,
        environment: Environment
    ) throws(CLIError) -> Never {
        guard let owner = RunProcess.current() else {
            throw .failure("cannot name this process for a one-time run: /proc is not readable.")
        }
        let client = try client(for: mountpoint, arguments: arguments, environment: environment)
        var write = PickerCommand.onceBegin(app: app, owner: owner).serialized
        if !targets.isEmpty {
            let command = PickerCommand.selectWith(
                app: app, targets: targets.map { PickerTarget(bytes: RawArguments.bytes($0)) }, grant: GrantOptions(once: owner))
            write += [UInt8(ascii: "\n")] + command.serialized
        }
        try client.send(write)
        let status: Int32
        do throws(CLIError) {
            status = try spawnAndWait(argv, as: user)
        } catch {
            end(app: app, owner: owner, client: client, environment: environment)
            throw error
        }
        end(app: app, owner: owner, client: client, environment: environment)
        // The command's exit code, or 128 + the signal that ended it, as a shell reports it.
        let signal = status & 0x7F
        exit(signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
    }

    /// Ends the run; when the daemon cannot be told, says that it ends the run itself.
    private static func end(app: String, owner: RunOwner, client: PickerClient, environment: Environment) {
        do throws(CLIError) {
            try client.send(PickerCommand.onceEnd(app: app, owner: owner).serialized)
        } catch {
            environment.output.error(
                "warning: could not end the one-time run of '\(app)' (\(error)); the daemon revokes its grants within a second.")
        }
    }

    private static func client(for mountpoint: String, arguments: ParsedArguments, environment: Environment) throws(CLIError)
        -> PickerClient
    {
        guard let entry = MountTable.current().entry(at: mountpoint) else {
            throw .notFound("\(mountpoint) is not a photofs mount; 'photofs status' lists them.")
        }
        let context = try LibraryContext.open(library: entry.library, arguments: arguments, environment: environment)
        return PickerClient(context: context, environment: environment.variables)
    }

    /// Runs bwrap as a child (as `user` when given: root only) and returns its wait status.
    private static func spawnAndWait(_ argv: [String], as user: (uid: uid_t, gid: gid_t)?) throws(CLIError) -> Int32 {
        // Everything the child needs is made before fork: after it only system calls run.
        let cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        guard let program = cArguments[0] else { throw .failure("cannot start the sandbox: out of memory.") }
        let pid = fork()
        if pid < 0 { throw .failure("cannot start the sandbox: \(String(cString: strerror(errno))).") }
        if pid == 0 {
            if let user {
                guard setgroups(0, nil) == 0, setgid(user.gid) == 0, setuid(user.uid) == 0 else { _exit(126) }
            }
            execv(program, cArguments)
            _exit(127)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            guard errno == EINTR else { throw .failure("cannot wait for the sandbox: \(String(cString: strerror(errno))).") }
        }
        return status
    }
}
