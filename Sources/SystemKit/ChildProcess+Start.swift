import Glibc

extension ChildProcess {
    /// What a child's descriptor becomes when it starts.
    public enum Inherited: Sendable {
        /// `/dev/null`, opened for reading (standard input) or writing.
        case null
        /// A descriptor of this process.
        case descriptor(FileDescriptor)
    }

    /// Starts `argv[0]` (a path) with `argv` and this process's environment; each entry of
    /// `descriptors` gives the child that descriptor number. The child starts with no signal
    /// blocked and SIGINT, SIGTERM, SIGHUP and SIGPIPE at their defaults, whatever thread of
    /// ours spawns it (Dispatch threads block signals; a daemon must see SIGTERM); with
    /// `newSession`, in a session of its own (`setsid`).
    public static func start(_ argv: [String], descriptors: [Int32: Inherited] = [:], newSession: Bool = false) throws(Errno)
        -> ChildProcess
    {
        guard let executable = argv.first else { throw .invalidArgument }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (number, inherited) in descriptors.sorted(by: { $0.key < $1.key }) {
            switch inherited {
            case .null: posix_spawn_file_actions_addopen(&actions, number, "/dev/null", number == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor.rawValue, number)
            }
        }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
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
        var child = pid_t()
        let status = posix_spawn(&child, executable, &actions, &attributes, arguments, environ)
        guard status == 0 else { throw Errno(rawValue: status) }
        return ChildProcess(id: child)
    }

    /// Starts `argv[0]` (a path) with `argv` and this process's environment after `fork`,
    /// as `user` when given (supplementary groups dropped, then group, then user; root
    /// only): for a change of user, which `posix_spawn` cannot make. The child exits 126
    /// when the switch fails and 127 when the program cannot run.
    public static func forkAndExecute(_ argv: [String], as user: (uid: UInt32, gid: UInt32)?) throws(Errno) -> ChildProcess {
        // Everything the child needs is made before fork: after it only system calls run.
        let arguments = argv.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        guard let program = arguments.first ?? nil else { throw .noMemory }
        let child = fork()
        if child < 0 { throw .current }
        if child == 0 {
            if let user {
                guard setgroups(0, nil) == 0, setgid(user.gid) == 0, setuid(user.uid) == 0 else { _exit(126) }
            }
            execv(program, arguments)
            _exit(127)
        }
        return ChildProcess(id: child)
    }
}

extension ChildProcess.Ending {
    /// The ending as a shell reports it: the exit code, or 128 + the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signalled(let signal): 128 + signal
        }
    }
}
