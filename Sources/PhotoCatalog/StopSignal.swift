import Synchronization

/// A request to abandon long work in the background (the snapshot file's write, the
/// daemon's work after ready) that the work checks between its pieces: the daemon sets it
/// when it exits, so that work at a low priority does not hold the exit.
public final class StopSignal: Sendable {
    private let stopped = Atomic<Bool>(false)

    public init() {}

    /// Asks the work to stop at its next check.
    public func stop() { stopped.store(true, ordering: .releasing) }

    /// Whether stopping was asked for.
    public var isStopped: Bool { stopped.load(ordering: .acquiring) }
}
