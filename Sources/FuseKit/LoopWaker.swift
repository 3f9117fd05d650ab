import CFuse
import Dispatch
import Synchronization
import SystemKit

/// Makes sure a signalled FUSE loop ends. libfuse's handler for SIGINT, SIGTERM and
/// SIGHUP only marks the session as exited; the loop notices when the signal interrupts
/// its thread's wait. That wake can be lost: the signal may land on another thread of the
/// daemon (libfuse's workers block it, the daemon's own threads need not), or between the
/// loop's check of the mark and the start of its wait. The loop would then sleep until
/// the next request, and a `kill` of an idle mount would never end it.
///
/// While the loop runs, this looks at the mark five times a second and, once it is set,
/// sends SIGTERM to the loop's thread itself (libfuse's handler again: the same mark),
/// until `stop`.
final class LoopWaker {
    private let queue = DispatchQueue(label: "photofs.loop-waker")
    private let timer: any DispatchSourceTimer

    /// Starts watching `session`, whose loop runs on `loopThread`.
    init(session: OpaquePointer, loopThread: ThreadHandle) {
        let pointer = SessionPointer(pointer: session)
        timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(200), repeating: .milliseconds(200))
        timer.setEventHandler {
            if fuse_session_exited(pointer.pointer) != 0 { loopThread.send(Signals.terminate) }
        }
        timer.resume()
    }

    /// Stops watching (once the loop returned, before the signal handlers are removed: a
    /// SIGTERM without them would end the process). No signal is sent after this returns.
    func stop() {
        timer.cancel()
        queue.sync {}
    }
}
