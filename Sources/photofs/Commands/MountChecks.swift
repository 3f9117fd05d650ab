import Dispatch
import FuseKit
import Glibc

/// The checks `photofs mount` makes before it touches anything: dependencies present,
/// mountpoint an empty directory outside the library (and the library outside it), no
/// stale mount left by a daemon that died.
enum MountChecks {
    /// /dev/fuse usable and fusermount3 on the PATH, or a missing-dependency error.
    static func dependencies(_ environment: Environment) throws(CLIError) {
        guard access("/dev/fuse", R_OK | W_OK) == 0 else {
            throw .missingDependency(
                "/dev/fuse is missing or not accessible: load the fuse module ('modprobe fuse') or run where FUSE is available.")
        }
        guard fusermount(environment) != nil else {
            throw .missingDependency("fusermount3 was not found on the PATH: install the fuse3 package.")
        }
    }

    /// The fusermount3 binary on the PATH.
    static func fusermount(_ environment: Environment) -> String? {
        let path = environment.variables["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/fusermount3" }.first { access($0, X_OK) == 0 }
    }

    /// Validates the mountpoint for a library; clears a stale mount when its daemon is gone.
    static func mountpoint(_ mountpoint: String, library: String, catalog: String?, environment: Environment) throws(CLIError) {
        // A stat can be answered from attributes the kernel cached while the daemon lived;
        // only a request that reaches the daemon tells a dead one apart.
        if MountTable.current().entry(at: mountpoint) != nil, daemonIsGone(mountpoint) {
            try clearStale(mountpoint, environment: environment)
        }
        var status = stat()
        if stat(mountpoint, &status) != 0 {
            switch errno {
            case ENOTCONN:
                try clearStale(mountpoint, environment: environment)
                guard stat(mountpoint, &status) == 0 else {
                    throw .failure("\(mountpoint) is still a broken mount; run 'fusermount3 -u \(mountpoint)' and try again.")
                }
            case ENOENT:
                throw .notFound("the mountpoint \(mountpoint) does not exist; create it with 'mkdir -p \(mountpoint)'.")
            default:
                throw .failure("cannot use the mountpoint \(mountpoint): \(String(cString: strerror(errno))).")
            }
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw .usage("the mountpoint \(mountpoint) is not a directory.") }
        if MountTable.current().entry(at: mountpoint) != nil {
            throw .refused("\(mountpoint) is already a photofs mount; run 'photofs unmount \(mountpoint)' first.")
        }
        guard let realMount = realPath(mountpoint), let realLibrary = realPath(library) else {
            throw .failure("cannot resolve \(mountpoint) or \(library).")
        }
        if isSameOrInside(realMount, realLibrary) {
            throw .usage("the mountpoint \(mountpoint) is inside the library \(library); choose a mountpoint outside it.")
        }
        if isSameOrInside(realLibrary, realMount) {
            throw .usage("the library \(library) is inside the mountpoint \(mountpoint); choose a mountpoint outside it.")
        }
        if let catalog, let realCatalog = realPath(parentOf(catalog)), isSameOrInside(realCatalog, realMount) {
            throw .usage("the catalog \(catalog) would be inside the mount; keep it outside \(mountpoint).")
        }
        guard isEmptyDirectory(mountpoint) else {
            throw .usage("the mountpoint \(mountpoint) is not empty; photofs mounts only on an empty directory.")
        }
    }

    /// Whether the FUSE mount at `mountpoint` has lost its daemon: `statvfs` is never
    /// answered from the kernel's caches, so it fails with ENOTCONN exactly then.
    static func daemonIsGone(_ mountpoint: String) -> Bool {
        var info = statvfs()
        return statvfs(mountpoint, &info) != 0 && errno == ENOTCONN
    }

    /// "Transport endpoint is not connected": the daemon that served this mount died
    /// (e.g. `kill -9`). Nothing can still be served from it, so it is safe to unmount.
    private static func clearStale(_ mountpoint: String, environment: Environment) throws(CLIError) {
        let how = "run 'fusermount3 -u \(mountpoint)' (or 'photofs unmount \(mountpoint)') and try again"
        environment.output.error("\(mountpoint) is a stale mount (Transport endpoint is not connected): its daemon is gone. Unmounting it.")
        guard let tool = fusermount(environment) else { throw .failure("cannot clear the stale mount: \(how).") }
        let code = Spawn.run([tool, "-u", mountpoint])
        if code != 0, Spawn.run([tool, "-u", "-z", mountpoint]) != 0 {
            throw .failure("could not clear the stale mount at \(mountpoint): \(how).")
        }
    }

    /// The absolute path with symlinks resolved, or nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func parentOf(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Whether `inner` is `outer` or below it (real paths).
    static func isSameOrInside(_ inner: String, _ outer: String) -> Bool {
        inner == outer || inner.hasPrefix(outer == "/" ? "/" : outer + "/")
    }

    private static func isEmptyDirectory(_ path: String) -> Bool {
        guard let directory = opendir(path) else { return false }
        defer { closedir(directory) }
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { return false }
        }
        return true
    }
}

/// Runs helper programs (fusermount3, the daemon child) with posix_spawn: no fork in a
/// process that may already run threads.
enum Spawn {
    /// Runs a program to completion; its exit status, or -1 when it could not start.
    static func run(_ argv: [String]) -> Int32 {
        guard let pid = start(argv, fileActions: nil) else { return -1 }
        return wait(pid)
    }

    /// Starts a program with its standard input, output and error on /dev/null (a browser,
    /// a picker, a notifier: nothing of theirs belongs on our terminal); nil when it could
    /// not start.
    static func startQuietly(_ argv: [String]) -> pid_t? {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        return start(argv, fileActions: &actions)
    }

    /// Starts a program quietly and reaps it on a background thread when it ends.
    @discardableResult
    static func startReaped(_ argv: [String]) -> Bool {
        guard let pid = startQuietly(argv) else { return false }
        DispatchQueue.global(qos: .utility).async { _ = wait(pid) }
        return true
    }

    /// Starts a program; nil when posix_spawn failed.
    static func start(_ argv: [String], fileActions: UnsafePointer<posix_spawn_file_actions_t>?, newSession: Bool = false) -> pid_t? {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and default handlers, whatever thread of
        // ours spawns it (Dispatch threads block signals; a daemon must see SIGTERM).
        // POSIX_SPAWN_SETSID (glibc 2.26+) is hidden behind _GNU_SOURCE: its value is 0x80.
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        if newSession { flags |= 0x80 }
        posix_spawnattr_setflags(&attributes, flags)
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        var pid = pid_t()
        let result = posix_spawn(&pid, argv[0], fileActions, &attributes, arguments, environ)
        return result == 0 ? pid : nil
    }

    /// Waits for a child; its exit status (128 + signal when killed).
    static func wait(_ pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR { return -1 }
        }
        if status & 0x7f == 0 { return (status >> 8) & 0xff }
        return 128 + (status & 0x7f)
    }
}
