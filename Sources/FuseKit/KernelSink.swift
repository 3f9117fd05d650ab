import PhotoCore
import Synchronization

/// The kernel's side of the live state's changes: the `ChangeSink` the daemon hands the
/// owner of its views. Each change it is given has the kernel forget what it cached of the
/// old views (`Invalidator`), starts making the compatible JPEGs the new views serve
/// (`PhotoFileSystem.prepareRepresentations`) and, after a library change, hands the freed
/// pages back (`StateChange` says which).
///
/// Made before the file system (the daemon's library watcher publishes through it before
/// the views exist); the file system subscribes when it is made, the mount attaches the
/// session.
public final class KernelSink: ChangeSink {
    /// How long a change waits for the kernel to take its invalidations: a successful
    /// `.picker` write returns only once a revoked file is gone.
    static let wait: Double = 2
    let invalidator: Invalidator
    /// Starts the making of compatible JPEGs (the file system, once made).
    private let preparer = Mutex<(@Sendable () -> Void)?>(nil)

    public init(log: @escaping @Sendable (String) -> Void) {
        invalidator = Invalidator(log: log)
    }

    /// Makes the compatible JPEGs of each change's views with `prepare`.
    func subscribe(prepare: @escaping @Sendable () -> Void) {
        preparer.withLock { $0 = prepare }
    }

    public func publish<Failure: Error>(_ kind: StateChange.Kind, _ change: () throws(Failure) -> ViewTreeChanges?) throws(Failure) {
        let forget: ViewTreeChanges?
        switch kind {
        case .library:
            forget = try invalidator.submit(wait: Self.wait, after: change)
        case .access:
            // Its invalidations read only the apps' parts, which are built whole: no bracket.
            forget = try change()
            if let forget { invalidator.submit(forget, wait: Self.wait) }
        }
        guard let forget else { return }
        let published = StateChange(kind: kind, forget: forget)
        if published.releasesFreedMemory { invalidator.releaseFreedMemory() }
        if published.preparesRepresentations { preparer.withLock { $0 }?() }
    }

    /// Hands pages freed by other work than a change back to the system (the startup
    /// scan's walk, once it is done).
    public func releaseFreedMemory() {
        invalidator.releaseFreedMemory()
    }
}
