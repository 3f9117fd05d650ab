import Dispatch
import Foundation
import PhotoCatalog
import PhotoCore
import Synchronization
import SystemKit

/// The walk of the library that a mount compares with its catalog, on a thread of its own,
/// to find what is new, changed or gone. With a watcher, each folder is watched just before
/// it is read, so any change the walk cannot have seen is queued for the watcher.
///
/// A first mount (an empty catalog) waits for it and indexes before it is ready (`result`).
/// A mount of a catalog that holds assets does not: it serves the catalog as it is, starts
/// the walk once the mount answers, and `catchUp` indexes what the walk found, handing the
/// summary to the same handler as the watcher. Serving first is safe because every read
/// checks the source's size, mtime, inode and ctime against the catalog and refuses a file
/// that differs (ESTALE), so a file changed while nothing was mounted is never served with
/// the plan of the file it replaced.
public final class StartupScan: Sendable {
    /// The walk and whether it needs an index run, or why it failed.
    private let outcome = Mutex<Result<(LibraryScan, Bool), IndexError>?>(nil)
    private let done = DispatchGroup()
    /// The catch-up run after the mount is ready (`catchUp`), waited for by `stop`.
    private let catchingUp = DispatchGroup()
    /// Set by `stop`: the catch-up run indexes and delivers nothing more.
    private let stopping = StopSignal()
    private let indexer: Indexer
    private let watcher: LibraryWatcher?

    /// A scan of `indexer`'s library that watches folders with `watcher`; not started.
    public init(indexer: Indexer, watcher: LibraryWatcher?) {
        self.indexer = indexer
        self.watcher = watcher
    }

    /// Starts walking now, on a thread of its own, and compares the walk with `snapshot`
    /// (the catalog's, as the mount serves it). `belowRequests` runs the walk at nice 10
    /// (Linux keeps the nice value per thread), as a walk once the mount answers should:
    /// at a million files it keeps a core busy for seconds, and a `.picker` write or a
    /// listing right after ready must not share that core with it as an equal. Call once.
    public func start(comparingWith snapshot: LibrarySnapshot, belowRequests: Bool = false) {
        done.enter()
        Thread.detachNewThread { [self] in
            if belowRequests { ThreadPriority.setNice(10) }
            let result: Result<(LibraryScan, Bool), IndexError>
            do throws(IndexError) {
                let scan = try indexer.scan(entering: watcher.map { watcher in { watcher.watch($0) } })
                result = .success((scan, try indexer.needsRun(scan, snapshot: snapshot)))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            done.leave()
        }
    }

    /// Waits for the walk and the comparison: the scan and whether an index run is needed,
    /// or why the walk or the catalog failed; nil when the walk did not finish. Call once,
    /// after `start` (or `catchUp` instead): the scan is handed over, not kept.
    public func result() -> Result<(scan: LibraryScan, needsIndexing: Bool), IndexError>? {
        take().map { outcome in outcome.map { (scan: $0.0, needsIndexing: $0.1) } }
    }

    /// On a thread of its own: waits for the walk and the comparison and, when the walk
    /// found something new, changed or gone, indexes it and hands the summary to
    /// `deliver` (the watcher's handler: reload the changed assets, invalidate).
    /// `report` gets one line about the outcome, or the reason the scan or the run failed
    /// (the watcher's next change retries; a remount scans again). `then` runs last, in
    /// every case: the watcher starts there, so that the changes it queued during the walk
    /// are indexed after this run of the older walk, never undone by it (unless `stop` was
    /// called: the daemon is exiting, and nothing is started any more). Call once, after
    /// `start`, instead of `result`.
    public func catchUp(
        deliver: @escaping LibraryWatcher.CatalogChangeHandler, report: @escaping @Sendable (_ line: String, _ failed: Bool) -> Void,
        then: @escaping @Sendable () -> Void
    ) {
        catchingUp.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            defer {
                if !stopping.isStopped { then() }
                catchingUp.leave()
            }
            // The walk itself cannot be cut short: while it goes on, look at the stop flag
            // now and then, so that a daemon that exits does not wait for it.
            while done.wait(timeout: .now() + .milliseconds(50)) == .timedOut {
                guard !stopping.isStopped else {
                    report("startup scan: stopped during the walk (the daemon is exiting; a remount scans again)", false)
                    return
                }
            }
            let taken = take()
            guard !stopping.isStopped else {
                report("startup scan: stopped (the daemon is exiting; a remount scans again)", false)
                return
            }
            switch taken {
            case .success(let (scan, needed)):
                guard needed else {
                    report("startup scan: \(scan.fileCount) files, nothing new", false)
                    return
                }
                let summary: IndexSummary
                do throws(IndexError) {
                    summary = try indexer.run(scan: scan)
                } catch {
                    report("the startup scan's index run failed (the next change or a remount retries): \(error)", true)
                    return
                }
                if summary.changedCatalog, !stopping.isStopped {
                    do throws(CatalogError) {
                        try deliver(summary)
                    } catch {
                        report("cannot show what the startup scan indexed (the next change or a remount shows it): \(error)", true)
                        return
                    }
                }
                // Logged once the views show the run (tests wait for this line).
                report(
                    "startup scan: \(scan.fileCount) files; indexed \(summary.new) new, \(summary.changed) changed, "
                        + "\(summary.moved) moved, \(summary.removed) removed in \(Int(summary.seconds * 1000)) ms", false)
            case .failure(let error):
                report("the startup scan failed (changes made while unmounted show after the next change or a remount): \(error)", true)
            case nil:
                report("the startup scan did not finish", true)
            }
        }
    }

    /// Before the daemon exits: asks a catch-up run in progress to index and deliver
    /// nothing more, and waits up to `seconds` for it; false when it is still going. It
    /// stops waiting for a walk still going (which reads and watches folders, and is left
    /// to end with the process); an index run already under way is not cut short, and at
    /// nice 10 under heavy load it may wait long for a core: the daemon exits anyway, and
    /// what the run had not committed is rolled back by SQLite and found again by the next
    /// mount's scan.
    @discardableResult
    public func stop(waitingAtMost seconds: Double = 2) -> Bool {
        stopping.stop()
        return catchingUp.wait(timeout: .now() + seconds) == .success
    }

    private func take() -> Result<(LibraryScan, Bool), IndexError>? {
        done.wait()
        return outcome.withLock { outcome in
            defer { outcome = nil }
            return outcome
        }
    }
}
