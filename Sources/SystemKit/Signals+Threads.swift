import Glibc

extension Signals {
    /// Unblocks `signals` on the calling thread (`pthread_sigmask`): a parent may have
    /// started the process with them blocked, and threads started later inherit this
    /// thread's mask.
    public static func unblockOnCurrentThread(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}

/// A thread of this process, to send a signal to (`pthread_t`).
public struct ThreadHandle: @unchecked Sendable {
    @usableFromInline let thread: pthread_t

    /// The calling thread.
    public static var current: ThreadHandle { ThreadHandle(thread: pthread_self()) }

    /// Sends `signal` (one of `Signals`) to this thread (`pthread_kill`): its handler runs
    /// there, and a wait of that thread is interrupted.
    public func send(_ signal: Int32) { _ = pthread_kill(thread, signal) }
}
