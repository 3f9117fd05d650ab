import CFuse
import Glibc
import PhotoCore
import Synchronization

/// The daemon's state, handed to every FUSE callback as the session userdata: the current
/// view tree (swapped as a whole under a mutex), the library root, the control-file
/// handler and the queue that tells the kernel what to forget.
///
/// Request handlers take the current tree once, then work on that immutable value; no
/// handler holds the mutex while it does I/O.
public final class PhotoFileSystem: Sendable {
    let configuration: FileSystemConfiguration
    let control: (any ControlHandling)?
    let filters: any AppFilterResolving
    /// The library root, opened once; sources are opened relative to it.
    let libraryFD: Int32
    let buffers: ThreadBuffers
    let invalidator: Invalidator
    /// The renderings of `.picker`, one inode each, and its write limit.
    let controlFile = ControlFileState()
    /// The apps' pick requests (`apps/APP/.request`, `.requests`).
    let requests = RequestFiles()
    /// Directory times: when the daemon started.
    let startTime: timespec
    /// Where the newest snapshot can be read, when the daemon has more than one writer
    /// (picker writes and the library watcher): read inside the install lock, so the last
    /// install always shows the newest state, whatever order the writers finish in.
    private let latest: (@Sendable () -> LibrarySnapshot)?
    private let current: Mutex<ViewTree>
    /// Serialises `install` so trees are built from the tree they replace, in order.
    private let installing = Mutex(())

    /// Opens the library and computes the first tree. `latest`, when given, is read by every
    /// `install` instead of the snapshot passed to it (see `install`).
    public init(
        configuration: FileSystemConfiguration, snapshot: LibrarySnapshot, filters: some AppFilterResolving,
        control: (any ControlHandling)?,
        latest: (@Sendable () -> LibrarySnapshot)? = nil
    ) throws(MountError) {
        let fd = configuration.libraryPath.withCString { Glibc.open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard fd >= 0 else { throw .libraryUnreadable(errno: errno) }
        self.configuration = configuration
        self.control = control
        self.filters = filters
        self.latest = latest
        self.libraryFD = fd
        self.buffers = ThreadBuffers()
        self.invalidator = Invalidator(log: configuration.log)
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        self.startTime = now
        self.current = Mutex(ViewTree.build(snapshot: snapshot, filters: filters))
    }

    deinit {
        close(libraryFD)
    }

    /// The tree requests are answered from right now.
    public var tree: ViewTree { current.withLock { $0 } }

    /// Shows a new snapshot: builds its tree (keeping names of assets that stay), swaps it
    /// in, and has the kernel drop the entries, attributes, pages and listings that
    /// changed. Waits up to `wait` seconds for the kernel to acknowledge, so that a
    /// successful `.picker` write returns only once a revoked file is gone. With a `latest`
    /// source, that source is read instead of `snapshot`.
    @discardableResult
    public func install(_ snapshot: LibrarySnapshot, wait: Double = 2) -> ViewTreeChanges {
        let changes = installing.withLock { _ -> ViewTreeChanges in
            let snapshot = latest?() ?? snapshot
            let old = tree
            let new = ViewTree.build(snapshot: snapshot, previous: old, filters: filters)
            current.withLock { $0 = new }
            return old.changes(to: new)
        }
        if !changes.isEmpty { invalidator.submit(changes, wait: wait) }
        // The replaced tree (and the snapshot only it held) was just freed: without this
        // glibc keeps those pages for the next build and the daemon stays at twice its size.
        photofs_release_freed_memory()
        return changes
    }
}

extension PhotoFileSystem {
    /// Shows the newest snapshot of the `latest` source (after a re-index).
    @discardableResult
    public func installLatest(wait: Double = 2) -> ViewTreeChanges {
        guard let latest else { return ViewTreeChanges() }
        return install(latest(), wait: wait)
    }
}

/// Why the file system could not be started or mounted.
public enum MountError: Error, Sendable, Equatable {
    /// The library root could not be opened (errno).
    case libraryUnreadable(errno: Int32)
    /// libfuse refused the options (it printed why on stderr).
    case sessionFailed
    /// The kernel mount failed (fusermount3 printed why on stderr).
    case mountFailed
    /// The event loop could not be configured.
    case loopFailed
}
