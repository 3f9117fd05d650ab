import Glibc

/// A process this one started (`posix_spawn`), by its id: signalled and reaped by the
/// owner of this value.
public struct ChildProcess: Sendable, Hashable {
    public let id: Int32

    public init(id: Int32) { self.id = id }

    /// Starts `executable` with `arguments` and `environment` (`NAME=value`). Standard input
    /// and output become `standardIO` when given, standard error `/dev/null` when
    /// `quietErrors`; every other descriptor of this process is close-on-exec.
    public static func spawn(
        _ executable: String, arguments: [String], environment: [String], standardIO: FileDescriptor?, quietErrors: Bool
    ) throws(Errno) -> ChildProcess {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let standardIO {
            posix_spawn_file_actions_adddup2(&actions, standardIO.rawValue, 0)
            posix_spawn_file_actions_adddup2(&actions, standardIO.rawValue, 1)
        }
        if quietErrors { posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0) }
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard status == 0 else { throw Errno(rawValue: status) }
        return ChildProcess(id: child)
    }

    /// Sends SIGKILL.
    public func kill() { _ = Glibc.kill(id, SIGKILL) }

    /// How a child ended.
    public enum Ending: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// Waits for the process to end (repeating on EINTR) and says how it ended.
    public func wait() throws(Errno) -> Ending {
        var status: Int32 = 0
        _ = try Syscall.retrying { waitpid(id, &status, 0) }
        let signal = status & 0x7F
        return signal != 0 ? .signalled(signal) : .exited((status >> 8) & 0xFF)
    }
}

extension FileDescriptor {
    /// A connected pair of local stream sockets, close-on-exec.
    public static func socketPair() throws(Errno) -> (FileDescriptor, FileDescriptor) {
        var pair: [Int32] = [-1, -1]
        _ = try Syscall.checked { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) }
        return (FileDescriptor(rawValue: pair[0]), FileDescriptor(rawValue: pair[1]))
    }

    /// Sends from `bytes` on a socket without raising SIGPIPE (`MSG_NOSIGNAL`); the bytes sent.
    public func send(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return try Syscall.retrying { Glibc.send(rawValue, base, bytes.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Receives into `buffer` from a socket; 0 when the peer closed it.
    public func receive(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try Syscall.retrying { recv(rawValue, base, buffer.count, 0) }
    }

    /// Shuts a socket down both ways (the peer reads the end).
    public func shutdown() { _ = Glibc.shutdown(rawValue, Int32(SHUT_RDWR)) }

    /// What `poll` saw on a descriptor.
    public enum Readiness: Sendable, Equatable {
        /// Nothing within the time allowed.
        case waiting
        /// Readable, closed or failed: a read will not block.
        case ready
    }

    /// Waits up to `milliseconds` (0: not at all) for the descriptor to be readable. An
    /// interrupted wait answers `.waiting` (the caller's loop checks its deadline).
    public func waitReadable(milliseconds: Int32) throws(Errno) -> Readiness {
        var poller = pollfd(fd: rawValue, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, milliseconds)
        if ready < 0 {
            let code = Errno.current
            if code == .interrupted { return .waiting }
            throw code
        }
        return ready == 0 ? .waiting : .ready
    }
}
