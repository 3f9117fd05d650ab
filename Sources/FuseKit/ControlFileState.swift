import Synchronization

/// What the daemon keeps about `.picker` between requests: its renderings, one inode
/// each (`PickerGenerations`), and the largest WRITE the kernel sends in one request.
final class ControlFileState: Sendable {
    let generations = PickerGenerations()
    /// `max_write` as negotiated at INIT: a `write(2)` larger than this reaches the daemon
    /// as several WRITE requests (see `Control.swift`).
    let maxWrite = Atomic<Int>(1 << 20)
    /// The kernel's `max_pages` limit: a WRITE also ends where it would span more pages
    /// than this from its offset's page.
    let maxWritePages = Atomic<Int>(256)
}
