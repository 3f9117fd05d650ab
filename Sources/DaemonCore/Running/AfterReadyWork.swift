import Dispatch
import Foundation
import PhotoCatalog
import Synchronization
import SystemKit

/// What a daemon does once its mount answers and nothing waits for: the picker's asset
/// groups (every select asks for them; derived now rather than by the first select), its
/// path table and the capture-date order that `select --where` and rule apps walk (sorted
/// now rather than by the first such write: about a second at a million assets), then the
/// snapshot file the next mount reads instead of the catalog's table.
///
/// It runs on a thread of its own at nice 10 (Linux keeps the nice value per thread), below
/// the requests the mount answers meanwhile: a select right after ready must not queue
/// behind a sort or a 170 MB write on two cores. Under heavy load such a thread can wait a
/// long time for a core, so the daemon's exit does not wait for it to finish: `stop` asks
/// it to abandon what is left (checked between its steps and every megabyte of a file it
/// writes, whose new file it then removes) and waits a bounded time. Whatever it leaves is
/// harmless: a table not built is built on first use, and a file is only ever renamed into
/// place whole.
public final class AfterReadyWork: Sendable {
    private let done = DispatchGroup()
    private let stopping = StopSignal()
    private let outcome = Mutex<Outcome?>(nil)

    /// How the work ended.
    public enum Outcome: Equatable, Sendable {
        /// Every step ran (the files written, or nothing was missing).
        case finished
        /// `stop` was asked for before it was done: the rest was abandoned.
        case stopped
    }

    public init() {}

    /// Starts the work for `state`, logging the snapshot file's outcome to `log`.
    public func start(state: LibraryState, log logger: DaemonLog) {
        done.enter()
        Thread.detachNewThread { [self] in
            defer { done.leave() }
            ThreadPriority.setNice(10)
            let ended = Self.run(state: state, stop: stopping, log: logger)
            outcome.withLock { $0 = ended }
        }
    }

    /// The steps, in order, each skipped once `stop` is set.
    private static func run(state: LibraryState, stop: StopSignal, log logger: DaemonLog) -> Outcome {
        let index = state.current.assets
        let steps: [() -> Void] = [{ _ = index.groups }, { index.prepare() }, { index.prepare(dateOrder: true) }]
        for step in steps {
            if stop.isStopped { return .stopped }
            step()
        }
        if stop.isStopped { return .stopped }
        do throws(SnapshotFileError) {
            if try state.saveLoadedSnapshot(stop: stop) { logger.debug("saved the snapshot file and the view tables for the next mount") }
        } catch {
            if case .stopped = error {
                logger.debug("stopped writing the snapshot file (the daemon is exiting)")
                return .stopped
            }
            logger.warning("cannot save the snapshot file (the next mount reads the catalog): \(error)")
        }
        return .finished
    }

    /// Asks the work to stop and waits up to `seconds` for it; its outcome, or nil when it
    /// had not started or is still running (a thread starved at nice 10: the daemon exits
    /// anyway, and the process's end takes the thread with it).
    @discardableResult
    public func stop(waitingAtMost seconds: Double = 2) -> Outcome? {
        stopping.stop()
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return outcome.withLock { $0 }
    }

    /// Waits for the work started, if any, to end by itself; its outcome.
    @discardableResult
    public func wait() -> Outcome? {
        done.wait()
        return outcome.withLock { $0 }
    }
}
