import Glibc

/// One running decoder process (`photofs thumbnail-worker`) and the socket to it. Owned by
/// one caller at a time (the pool hands it out); killed and reaped when it misbehaves.
final class DecoderProcess {
    let pid: pid_t
    private let socket: Int32
    private var alive = true

    /// Starts `executable` with `arguments`, its stdin and stdout a socket to this process
    /// and its stderr `/dev/null` (a crashing decoder library must not scribble on a
    /// progress bar or a daemon's log), and this process's environment with `tunables`
    /// added to `GLIBC_TUNABLES`.
    init(executable: String, arguments: [String], tunables: String? = nil) throws(ImagingError) {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw .workerUnavailable(String(cString: strerror(errno)))
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pair[1], 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = Self.environment(adding: tunables).map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, nil, argv, envp)
        close(pair[1])
        guard status == 0 else {
            close(pair[0])
            throw .workerUnavailable("\(executable): \(String(cString: strerror(status)))")
        }
        self.pid = child
        self.socket = pair[0]
    }

    deinit { finish() }

    /// This process's environment, with `tunables` appended to its `GLIBC_TUNABLES`.
    static func environment(adding tunables: String?) -> [String] {
        var entries: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            entries.append(String(cString: entry))
            pointer += 1
        }
        guard let tunables else { return entries }
        let key = "GLIBC_TUNABLES="
        if let index = entries.firstIndex(where: { $0.hasPrefix(key) }) {
            entries[index] += ":" + tunables
        } else {
            entries.append(key + tunables)
        }
        return entries
    }

    /// Sends `request` and waits at most `timeLimit` seconds for the answer. On a timeout or
    /// a dead process the process is stopped (this object is then unusable) and the error
    /// says what happened.
    func run(_ request: DecoderRequest, timeLimit: Double) throws(ImagingError) -> DecoderResponse {
        guard alive else { throw .workerUnavailable("the decoder process has stopped") }
        guard FrameIO.write(FrameCodec.encode(request), to: socket) else { throw .workerCrashed(reap()) }
        let frame: [UInt8]
        do throws(FrameIO.ReadFailure) {
            frame = try FrameIO.read(from: socket, deadline: MonotonicClock.now() + timeLimit)
        } catch {
            switch error {
            case .timedOut:
                stop()
                throw .timedOut(seconds: timeLimit)
            case .closed, .invalid:
                throw .workerCrashed(reap())
            }
        }
        guard let response = FrameCodec.decodeResponse(frame) else {
            stop()
            throw .workerCrashed("unreadable answer")
        }
        return response
    }

    var isAlive: Bool { alive }

    /// Whether an idle process is still there: it never writes unasked, so a readable or
    /// hung-up socket means it ended (killed from outside, out of memory).
    var isIdleAndWaiting: Bool {
        guard alive else { return false }
        var poller = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
        return poll(&poller, 1, 0) == 0
    }

    /// Ends an idle process the polite way: closing the socket makes its loop return, so
    /// it exits by itself (and its CPU time is counted as this process's children's).
    func finish() {
        guard alive else { return }
        shutdown(socket, Int32(SHUT_RDWR))
        _ = reap()
    }

    /// Kills (if still running) and reaps the process, closing the socket.
    func stop() {
        guard alive else { return }
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// Waits for the process to end and describes how it ended.
    private func reap() -> String {
        guard alive else { return "stopped" }
        alive = false
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let signal = status & 0x7F
        if signal != 0 { return "killed by signal \(signal)" }
        return "exited with status \((status >> 8) & 0xFF)"
    }
}
