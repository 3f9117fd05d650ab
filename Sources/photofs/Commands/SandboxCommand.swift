import DaemonClient
import SystemKit

/// `photofs run APP -- COMMAND...`: runs a command under bubblewrap with nothing of the
/// photo library but the app's view, read-only at `~/Pictures` (and `$PHOTOFS_DIR`).
///
/// The sandbox gets new namespaces (`--unshare-all`: no network unless `--share-net`),
/// the system directories read-only, an empty tmpfs for the home directory and `/tmp`,
/// and dies with its parent. Only `MOUNTPOINT/apps/APP` is bound: the mount root, with
/// `.picker` and `library/`, is never reachable from inside.
///
/// A view that belongs to another uid is that of an app bound to it (under
/// `--allow-other`; mode 0500): root runs the sandbox as that uid and its group, the uid
/// the view is for (root in a sandbox has no capabilities, so it could not enter the view
/// anyway); anyone else is refused, since only that uid and root may enter it.
enum SandboxCommand {
    static let command = Command(
        name: "run",
        summary: "run a command in a bubblewrap sandbox that sees only an app's photos",
        usage: [
            "run [--mountpoint MOUNTPOINT | --library DIR] [--share-net] [--bind PATH] [--ro-bind PATH] APP -- COMMAND [ARG...]",
            "run --once [--select TARGET]... [options] APP -- COMMAND [ARG...]",
        ],
        details: """
            Runs COMMAND under bwrap (package bubblewrap) with MOUNTPOINT/apps/APP bound read-only \
            at ~/Pictures inside the sandbox; $PHOTOFS_DIR names that path. The rest of the home \
            directory and /tmp are empty tmpfs, /usr, /etc and the other system directories are \
            read-only, every namespace is new (no network unless --share-net) and the sandbox dies \
            with photofs. The mount root, library/ and .picker are never bound. The mount is the \
            one given by --mountpoint, the mount of --library DIR (or $PHOTOFS_LIBRARY), the only \
            photofs mount, or the only one of several that has APP. The exit code is COMMAND's; bwrap missing is exit 3, no such mount \
            or app exit 4. With --once, the grants made for the run (--select TARGET before it starts, \
            and any made for APP while it runs, e.g. answering its request with photofs pick) are \
            revoked when COMMAND exits, however it exits; if photofs itself is killed, the daemon \
            revokes them within a second.
            """,
        options: [
            .value("mountpoint", short: "m", "MOUNTPOINT", "the photofs mount to take the app's view from"),
            .value("library", short: "L", "DIR", "take the mount of this library"),
            .flag("share-net", "keep the network (default: a new, empty network namespace)"),
            .value("bind", "PATH", "also bind PATH read-write at the same path (repeatable; e.g. an output folder)"),
            .value("ro-bind", "PATH", "also bind PATH read-only at the same path (repeatable)"),
            .flag("once", "one-time access: revoke the grants made for this run when COMMAND exits"),
            .value("select", "TARGET", "with --once: grant TARGET for this run only (repeatable)"),
        ],
        passesUnknownOptions: true
    ) { arguments, environment throws(CLIError) in
        let (app, commandLine) = try split(arguments.positionals)
        let mountpoint = try findMount(arguments, environment, app: app)
        let view = mountpoint + "/apps/" + app
        let owner = try checkView(view, app: app, mountpoint: mountpoint)
        let user = try runAs(owner, app: app)
        guard let bwrap = findProgram("bwrap", environment) else {
            throw .missingDependency("bwrap was not found on the PATH: install bubblewrap ('apt install bubblewrap').")
        }
        let argv =
            [bwrap] + sandboxArguments(view: view, mountpoint: mountpoint, arguments: arguments, environment: environment) + ["--"]
            + commandLine
        let targets = arguments.values("select")
        if arguments.flag("once") {
            try OnceRun.run(
                app: app, argv: argv, user: user, mountpoint: mountpoint, targets: targets, arguments: arguments, environment: environment)
        }
        guard targets.isEmpty else { throw .usage("--select grants for one run only: it needs --once") }
        return try exec(argv, as: user)
    }

    /// APP and the command after `--`; anything else before `--` is an unknown option.
    static func split(_ positionals: [String]) throws(CLIError) -> (app: String, command: [String]) {
        guard let dashes = positionals.firstIndex(of: "--") else {
            if let option = positionals.first(where: { $0.hasPrefix("-") }) {
                throw .usage("unknown option '\(option)' for 'run'; see 'photofs help run'")
            }
            throw .usage("run needs APP -- COMMAND; e.g. photofs run editor -- ls ~/Pictures")
        }
        let before = positionals[..<dashes]
        if let option = before.first(where: { $0.hasPrefix("-") }) {
            throw .usage("unknown option '\(option)' for 'run'; see 'photofs help run'")
        }
        guard before.count == 1, let app = before.first else {
            throw .usage(before.isEmpty ? "missing argument APP" : "run takes one APP before '--'")
        }
        guard !app.isEmpty, !app.contains("/"), app != ".", app != ".." else { throw .usage("'\(app)' is not an app name.") }
        let command = Array(positionals[(dashes + 1)...])
        guard !command.isEmpty else { throw .usage("missing COMMAND after '--'") }
        return (app, command)
    }

    /// The mountpoint: `--mountpoint`, the mount of `--library`/`$PHOTOFS_LIBRARY`, the only
    /// one, or the only one of several that has `app`.
    static func findMount(_ arguments: ParsedArguments, _ environment: Environment, app: String) throws(CLIError) -> String {
        let table = MountTable.current()
        if let mountpoint = arguments.value("mountpoint") {
            guard let entry = table.entry(at: mountpoint) else {
                throw .notFound("\(mountpoint) is not a photofs mount; 'photofs status' lists them.")
            }
            return entry.mountpoint
        }
        if let library = arguments.value("library") ?? environment.variables["PHOTOFS_LIBRARY"] {
            let real = MountChecks.realPath(library) ?? library
            guard let entry = table.entries.first(where: { (MountChecks.realPath($0.library) ?? $0.library) == real }) else {
                throw .notFound("the library \(library) is not mounted; mount it with 'photofs mount \(library) MOUNTPOINT'.")
            }
            return entry.mountpoint
        }
        switch table.entries.count {
        case 0:
            throw .notFound("no photofs mount is active; mount the library first with 'photofs mount LIBRARY MOUNTPOINT'.")
        case 1:
            return table.entries[0].mountpoint
        default:
            // Several mounts: the one that has the app, if only one has it. A view bound to
            // another user exists too (stat is refused, not missing); a stale mount has none.
            let having = table.entries.filter { entry in
                do throws(Errno) {
                    _ = try FileStatus.of(path: entry.mountpoint + "/apps/" + app)
                    return true
                } catch {
                    return error == .permissionDenied
                }
            }
            if having.count == 1 { return having[0].mountpoint }
            let list = (having.isEmpty ? table.entries : having).map(\.mountpoint).joined(separator: ", ")
            if having.isEmpty {
                throw .notFound("no photofs mount has an app named '\(app)' (mounts: \(list)); 'photofs app list' shows the apps.")
            }
            throw .usage("\(having.count) photofs mounts have an app named '\(app)' (\(list)); say which with --mountpoint.")
        }
    }

    /// The app's view must be a directory in a live mount; returns the uid it belongs to.
    static func checkView(_ view: String, app: String, mountpoint: String) throws(CLIError) -> UInt32 {
        let status: FileStatus
        do throws(Errno) {
            status = try FileStatus.of(path: view)
        } catch {
            switch error {
            case .noSuchFileOrDirectory: throw .notFound("no app named '\(app)' in \(mountpoint); 'photofs app list' shows the apps.")
            case .notConnected:
                throw .notFound(
                    "the mount \(mountpoint) is stale (its daemon is gone); run 'photofs unmount \(mountpoint)' and mount again.")
            case .permissionDenied: throw .refused("\(view) is not readable by you.")
            default: throw .failure("cannot use \(view): \(error).")
            }
        }
        guard status.kind == .directory else { throw .notFound("no app named '\(app)' in \(mountpoint).") }
        return status.owner
    }

    /// The uid and gid to run the sandbox as: nil (as we are) for a view of our own; the
    /// view's uid and its group when root starts the sandbox of an app bound to a uid.
    static func runAs(_ owner: UInt32, app: String) throws(CLIError) -> (uid: UInt32, gid: UInt32)? {
        let me = CurrentProcess.realUserID
        if owner == me { return nil }
        guard me == 0 else {
            throw .refused(
                "the app '\(app)' is bound to uid \(owner): only that user and root may enter its view; "
                    + "run 'photofs run' as root (it runs the command as uid \(owner)), or as that user.")
        }
        let gid = UserAccount.groupID(of: owner) ?? 65_534
        return (owner, gid)
    }

    /// bwrap's options (without the program and the command).
    static func sandboxArguments(view: String, mountpoint: String, arguments: ParsedArguments, environment: Environment) -> [String] {
        let home = homeDirectory(environment)
        let pictures = home + "/Pictures"
        // No capabilities inside, also when root starts the sandbox.
        var argv = ["--unshare-all", "--die-with-parent", "--new-session", "--cap-drop", "ALL"]
        if arguments.flag("share-net") { argv.append("--share-net") }
        // The system, read-only. Merged-/usr systems have /bin etc. as symlinks into /usr.
        var bound: [String] = []
        for directory in ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/opt"] {
            if let target = symlinkTarget(directory) {
                argv += ["--symlink", target, directory]
            } else if isDirectory(directory) {
                argv += ["--ro-bind", directory, directory]
                bound.append(directory)
            }
        }
        argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--tmpfs", "/run", "--tmpfs", "/var"]
        // A mount that lives below a bound system directory comes along with it (binds are
        // recursive): cover it, so only the app's view is reachable.
        let realMount = MountChecks.realPath(mountpoint) ?? mountpoint
        if bound.contains(where: { MountChecks.isSameOrInside(realMount, $0) }) {
            argv += ["--tmpfs", realMount]
        }
        argv += ["--tmpfs", home]
        for path in arguments.values("ro-bind") { argv += ["--ro-bind", path, path] }
        for path in arguments.values("bind") { argv += ["--bind", path, path] }
        argv += ["--dir", pictures, "--ro-bind", view, pictures]
        // The one writable file of the view: where the app asks for photos (it grants nothing).
        argv += ["--bind-try", view + "/.request", pictures + "/.request"]
        argv += ["--setenv", "HOME", home, "--setenv", "PHOTOFS_DIR", pictures, "--unsetenv", "PHOTOFS_LIBRARY", "--chdir", home]
        return argv
    }

    /// `$HOME` when it is an absolute path other than `/`, else the passwd entry's.
    static func homeDirectory(_ environment: Environment) -> String {
        if let home = environment.variables["HOME"], home.hasPrefix("/"), home != "/" { return home }
        if let home = UserAccount.homeDirectory(of: CurrentProcess.realUserID), home.hasPrefix("/"), home != "/" { return home }
        return "/home/photofs"
    }

    /// Replaces this process with bwrap, so signals and the exit code are the command's;
    /// as `user` when given (root only: drops supplementary groups, then group, then uid).
    private static func exec(_ argv: [String], as user: (uid: UInt32, gid: UInt32)?) throws(CLIError) -> ExitCode {
        if let user {
            do throws(Errno) {
                try CurrentProcess.become(uid: user.uid, gid: user.gid)
            } catch {
                throw .failure("cannot switch to uid \(user.uid) and gid \(user.gid): \(error).")
            }
        }
        let code = CurrentProcess.replace(with: argv)
        throw .missingDependency("cannot run \(argv[0]): \(code).")
    }

    /// The first executable `name` on `$PATH`.
    static func findProgram(_ name: String, _ environment: Environment) -> String? {
        let path = environment.variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first(where: FileSystem.isExecutable)
    }

    private static func symlinkTarget(_ path: String) -> String? { FileSystem.symbolicLinkTarget(path) }

    private static func isDirectory(_ path: String) -> Bool { (try? FileStatus.of(path: path))?.kind == .directory }
}
