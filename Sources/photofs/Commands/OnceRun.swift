import DaemonClient
import DaemonCore
import PhotoCatalog
import PhotoCore
import SystemKit

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
        app: String, argv: [String], user: (uid: UInt32, gid: UInt32)?, mountpoint: String, targets: [String], arguments: ParsedArguments,
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
        let ending: ChildProcess.Ending
        do throws(CLIError) {
            ending = try spawnAndWait(argv, as: user)
        } catch {
            end(app: app, owner: owner, client: client, environment: environment)
            throw error
        }
        end(app: app, owner: owner, client: client, environment: environment)
        // The command's exit code, or 128 + the signal that ended it, as a shell reports it.
        CurrentProcess.exit(ending.shellStatus)
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

    /// Runs bwrap as a child (as `user` when given: root only) and says how it ended.
    private static func spawnAndWait(_ argv: [String], as user: (uid: UInt32, gid: UInt32)?) throws(CLIError) -> ChildProcess.Ending {
        let child: ChildProcess
        do throws(Errno) {
            child = try ChildProcess.forkAndExecute(argv, as: user)
        } catch {
            throw .failure(error == .noMemory ? "cannot start the sandbox: out of memory." : "cannot start the sandbox: \(error).")
        }
        do throws(Errno) {
            return try child.wait()
        } catch {
            throw .failure("cannot wait for the sandbox: \(error).")
        }
    }
}
