import Dispatch
import PhotoCore

/// The kernel's side of the live state's changes: drains the `ChangeQueue` the owner of the
/// views publishes to, on a thread of its own. Each change has the kernel forget what it
/// cached of the old views (`Invalidator`, waiting for the notifications to be sent), then
/// tells the waiting publisher, then starts making the compatible JPEGs the new views
/// serve (`StateChange` says which).
enum ChangeDrain {
    /// Drains `queue` until it is closed: `invalidator` sends, `prepare` starts the
    /// compatible JPEGs.
    static func start(_ queue: ChangeQueue, invalidator: Invalidator, prepare: @escaping @Sendable () -> Void) {
        queue.subscribe()
        DispatchQueue(label: "photofs.changes").async {
            while let batch = queue.take() {
                for entry in batch {
                    invalidator.submit(entry.change.forget, wait: ChangeQueue.wait)
                    entry.delivered()
                    if entry.change.preparesRepresentations { prepare() }
                }
            }
        }
    }
}
