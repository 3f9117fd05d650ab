import Glibc

/// The signals that end the daemon, and sending one to a thread.
public enum EndSignal: Sendable, CaseIterable {
    /// SIGINT (Ctrl-C).
    case interrupt
    /// SIGTERM.
    case terminate
    /// SIGHUP.
    case hangUp

    @usableFromInline var number: Int32 {
        switch self {
        case .interrupt: SIGINT
        case .terminate: SIGTERM
        case .hangUp: SIGHUP
        }
    }

    /// Unblocks every end signal on the calling thread (`pthread_sigmask`): a parent may
    /// have started the process with them blocked, and threads started later inherit this
    /// thread's mask.
    public static func unblockOnCurrentThread() {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in allCases { sigaddset(&set, signal.number) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// A thread of this process, to send a signal to (`pthread_t`).
public struct ThreadHandle: @unchecked Sendable {
    @usableFromInline let thread: pthread_t

    /// The calling thread.
    public static var current: ThreadHandle { ThreadHandle(thread: pthread_self()) }

    /// Sends `signal` to this thread (`pthread_kill`): its handler runs there, and a wait
    /// of that thread is interrupted.
    public func send(_ signal: EndSignal) { _ = pthread_kill(thread, signal.number) }
}
