import Glibc

/// The background half of `photofs mount`: starts `photofs mount -f --ready-fd 3 ...` as a
/// child in its own session (no `fork` in a process that may run threads) and waits for
/// one readiness line on a pipe. Exits 0 once the child says `ready`; otherwise with the
/// child's exit code (the child has printed its reason on the shared stderr). Once ready,
/// the child lets go of stdout and stderr, so `$(photofs mount ...)` in a script returns.
enum MountBackground {
    /// The descriptor number the child gets the pipe's write end as.
    static let childReadyFD: Int32 = 3

    static func start(arguments: ParsedArguments, environment: Environment) throws(CLIError) -> ExitCode {
        var pipeFDs: [Int32] = [-1, -1]
        // pipe2 is hidden behind _GNU_SOURCE; the parent runs no other thread here, so
        // setting close-on-exec right after is not racy.
        guard pipe(&pipeFDs) == 0 else { throw .failure("cannot create a pipe: \(String(cString: strerror(errno))).") }
        let (readEnd, writeEnd) = (pipeFDs[0], pipeFDs[1])
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        defer { close(readEnd) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writeEnd, childReadyFD)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        var argv = [environment.executablePath, "mount", "-f", "--detach", "--ready-fd", String(childReadyFD)]
        for value in arguments.values("option") { argv += ["-o", value] }
        if arguments.flag("allow-other") { argv.append("--allow-other") }
        if arguments.flag("quiet") { argv.append("--quiet") }
        if arguments.flag("debug") { argv.append("--debug") }
        if let level = arguments.value("log-level") { argv += ["--log-level", level] }
        if let file = arguments.value("log-file") { argv += ["--log-file", file] }
        if let catalog = arguments.value("catalog") { argv += ["--catalog", catalog] }
        if let retention = arguments.value("log-retention") { argv += ["--log-retention", retention] }
        if arguments.flag("no-access-log") { argv.append("--no-access-log") }
        argv += ["--"] + arguments.positionals
        let child = Spawn.start(argv, fileActions: &actions, newSession: true)
        close(writeEnd)
        guard let child else { throw .failure("cannot start the photofs daemon (\(environment.executablePath)).") }

        let line = readLine(readEnd)
        if line == "ready" { return .success }
        let status = Spawn.wait(child)
        if status == 0 { throw .failure("the photofs daemon exited before the mount was ready.") }
        return ExitCode(rawValue: status) ?? .failure
    }

    /// Reads up to the first newline (or EOF) from `fd`.
    private static func readLine(_ fd: Int32) -> String {
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while bytes.count < 256 {
            let count = read(fd, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
