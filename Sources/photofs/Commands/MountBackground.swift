import SystemKit

/// The background half of `photofs mount`: starts `photofs mount -f --ready-fd 3 ...` as a
/// child in its own session (no `fork` in a process that may run threads) and waits for
/// one readiness line on a pipe. Exits 0 once the child says `ready`; otherwise with the
/// child's exit code (the child has printed its reason on the shared stderr). Once ready,
/// the child lets go of stdout and stderr, so `$(photofs mount ...)` in a script returns.
enum MountBackground {
    /// The descriptor number the child gets the pipe's write end as.
    static let childReadyFD: Int32 = 3

    static func start(arguments: ParsedArguments, environment: Environment) throws(CLIError) -> ExitCode {
        // The parent runs no other thread here, so the pipe's close-on-exec, set right
        // after it is made, cannot race with a spawn.
        let (readEnd, writeEnd): (FileDescriptor, FileDescriptor)
        do throws(Errno) {
            (readEnd, writeEnd) = try FileDescriptor.pipe()
        } catch {
            throw .failure("cannot create a pipe: \(error).")
        }
        defer { readEnd.close() }

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
        let child = Spawn.start(argv, descriptors: [0: .null, childReadyFD: .descriptor(writeEnd)], newSession: true)
        writeEnd.close()
        guard let child else { throw .failure("cannot start the photofs daemon (\(environment.executablePath)).") }

        let line = readLine(readEnd)
        if line == "ready" { return .success }
        let status = Spawn.wait(child)
        if status == 0 { throw .failure("the photofs daemon exited before the mount was ready.") }
        return ExitCode(rawValue: status) ?? .failure
    }

    /// Reads up to the first newline (or EOF) from `fd`.
    private static func readLine(_ descriptor: FileDescriptor) -> String {
        var bytes: [UInt8] = []
        var byte: [UInt8] = [0]
        while bytes.count < 256 {
            let count = (try? descriptor.read(into: &byte)) ?? 0
            if count <= 0 || byte[0] == UInt8(ascii: "\n") { break }
            bytes.append(byte[0])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
