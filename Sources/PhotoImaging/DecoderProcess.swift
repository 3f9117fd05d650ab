import SystemKit

/// One running decoder process (`photofs thumbnail-worker`) and the socket to it. Owned by
/// one caller at a time (the pool hands it out); killed and reaped when it misbehaves.
final class DecoderProcess {
    let child: ChildProcess
    private let socket: FileDescriptor
    private var alive = true

    /// Starts `executable` with `arguments`, its stdin and stdout a socket to this process
    /// and its stderr `/dev/null` (a crashing decoder library must not scribble on a
    /// progress bar or a daemon's log), and this process's environment with `tunables`
    /// added to `GLIBC_TUNABLES`.
    init(executable: String, arguments: [String], tunables: String? = nil) throws(ImagingError) {
        let pair: (FileDescriptor, FileDescriptor)
        do throws(Errno) {
            pair = try FileDescriptor.socketPair()
        } catch {
            throw .workerUnavailable(error.description)
        }
        defer { pair.1.close() }
        do throws(Errno) {
            child = try ChildProcess.spawn(
                executable, arguments: arguments, environment: Self.environment(adding: tunables), standardIO: pair.1, quietErrors: true)
        } catch {
            pair.0.close()
            throw .workerUnavailable("\(executable): \(error)")
        }
        self.socket = pair.0
    }

    /// The process id.
    var pid: Int32 { child.id }

    deinit { finish() }

    /// This process's environment, with `tunables` appended to its `GLIBC_TUNABLES`.
    static func environment(adding tunables: String?) -> [String] {
        var entries = CurrentProcess.environment
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
        guard FrameIO.write(FrameCodec.encode(request), to: socket.rawValue) else { throw .workerCrashed(reap()) }
        let frame: [UInt8]
        do throws(FrameIO.ReadFailure) {
            frame = try FrameIO.read(from: socket.rawValue, deadline: SystemClock.monotonicSeconds() + timeLimit)
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
        return (try? socket.waitReadable(milliseconds: 0)) == .waiting
    }

    /// Ends an idle process the polite way: closing the socket makes its loop return, so
    /// it exits by itself (and its CPU time is counted as this process's children's).
    func finish() {
        guard alive else { return }
        socket.shutdown()
        _ = reap()
    }

    /// Kills (if still running) and reaps the process, closing the socket.
    func stop() {
        guard alive else { return }
        child.kill()
        _ = reap()
    }

    /// Waits for the process to end and describes how it ended.
    private func reap() -> String {
        guard alive else { return "stopped" }
        alive = false
        socket.close()
        switch try? child.wait() {
        case .signalled(let signal): return "killed by signal \(signal)"
        case .exited(let status): return "exited with status \(status)"
        case nil: return "exited with status 0"
        }
    }
}
