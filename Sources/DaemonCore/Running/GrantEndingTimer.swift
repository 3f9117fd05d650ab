import Foundation
import PhotoCatalog
import PhotoCore
import Synchronization
import SystemKit

/// The daemon's timer that ends grants without anyone asking: at an expiry, and when the
/// process of a one-time run is gone (killed, crashed). It installs the revocation through
/// `LibraryState` (catalog, views), which publishes it like a picker write.
///
/// It ticks every `interval` on a thread of its own: a tick with nothing due compares one version number;
/// the earliest expiry and the runs on record are recomputed only when the state changed,
/// and run processes are looked up in `/proc` only while a one-time run is on record.
public final class GrantEndingTimer: Sendable {
    private let state: LibraryState
    private let log: DaemonLog
    private let outlook = Mutex<LibraryState.EndingOutlook?>(nil)
    private let stopped = Mutex(false)
    /// A fifth of a second: well inside the promise that an expired grant is gone within one.
    static let intervalMicroseconds: useconds_t = 200_000

    public init(state: LibraryState, log: DaemonLog) {
        self.state = state
        self.log = log
    }

    /// Starts ticking on a thread of its own.
    public func start() {
        Thread.detachNewThread { [self] in
            while !stopped.withLock({ $0 }) {
                tick()
                usleep(Self.intervalMicroseconds)
            }
        }
    }

    /// Ends the ticking (within one interval).
    public func stop() {
        stopped.withLock { $0 = true }
    }

    /// One tick: ends what is due (published by the state). Internal for tests.
    func tick() {
        let version = state.version
        var known = outlook.withLock { $0 }
        if known?.version != version {
            known = state.endingOutlook()
            outlook.withLock { $0 = known }
        }
        guard let known else { return }
        let now = SystemClock.wallNanoseconds()
        let due = known.nextExpiry.map { $0 <= now } ?? false
        // A handful of /proc reads; the state (and its lock) only when a run is over.
        guard due || known.runOwners.contains(where: { !RunProcess.isRunning($0) }) else { return }
        do throws(CatalogError) {
            guard try state.endFinishedGrants(now: now, isRunning: RunProcess.isRunning) != nil else { return }
            log.info("grants ended by expiry or the end of a one-time run")
        } catch {
            // Retried on the next tick, a fifth of a second later.
            log.error("could not end expired or one-time grants (retrying): \(error)")
        }
    }
}
