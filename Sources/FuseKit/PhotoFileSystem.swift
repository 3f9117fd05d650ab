import CFuse
import PhotoCore
import Synchronization
import SystemKit

/// The daemon's file system, handed to every FUSE callback as the session userdata: the
/// view layer that decides every answer (`ViewLayer`, over the views of the one owner of
/// the live state), the library root it reads below, what only the kernel needs (the
/// `.picker` renderings' inodes, per-thread buffers, deferred request replies) and the
/// drain of the state's changes that tells the kernel what to forget (`ChangeDrain`).
///
/// Request handlers take the current tree once, then work on that immutable value; no
/// handler holds a lock while it does I/O.
public final class PhotoFileSystem: Sendable {
    let configuration: FileSystemConfiguration
    /// Who may see what and which bytes are served: every operation's decisions.
    public let layer: ViewLayer
    /// The library root, opened once; sources are opened relative to it.
    let libraryFD: Int32
    let buffers: ThreadBuffers
    /// Where the views' changes are published (the owner's, or one of its own).
    let sink: ChangeQueue
    /// Whether the views' owner publishes its changes to `sink` itself (the daemon's
    /// `LibraryState`), so that `forget` has nothing left to do.
    let ownerPublishes: Bool
    /// Tells the kernel what to forget.
    let invalidator: Invalidator
    /// The renderings of `.picker`, one inode each, and its write limit.
    let controlFile = ControlFileState()
    /// The apps' pick requests (`apps/APP/.request`, `.requests`): their expiry and ticks.
    let requests: RequestFiles
    /// Which READDIRPLUS chunks carry attributes (who stats what it lists).
    let statWalkers = StatWalkers()
    /// Makes the compatible JPEGs of new views in the background, one run at a time.
    let preparation = RepresentationPreparation()
    /// Directory times: when the daemon started.
    let startTime: timespec
    /// Whether the kernel reads directories without OPENDIR (negotiated at INIT, see
    /// `FuseOperations.negotiate`): then READDIR pages through the current views.
    let directoriesWithoutOpen = Atomic<Bool>(false)
    /// Whether the mount options let other users in (`allow_other`, `allow_root`), set by
    /// `FuseMount` before the session starts: like `othersMayEnter`, it keeps OPENDIR.
    let optionsLetOthersIn = Atomic<Bool>(false)

    /// Opens the library; redacted views read their plans from `plans`. `sink`, when given,
    /// is the one the views' owner publishes every change to (made before this file
    /// system, see `ChangeQueue`); the file system drains it. Without one, whoever replaces
    /// the views says what changed with `forget`.
    public init(
        configuration: FileSystemConfiguration, views: any ViewSource, plans: any RedactionPlanSource, control: (any ControlHandling)?,
        sink: ChangeQueue? = nil
    ) throws(MountError) {
        let fd: Int32
        do throws(Errno) {
            fd = try FileDescriptor.open(configuration.libraryPath, .directory).rawValue
        } catch {
            throw .libraryUnreadable(errno: error.rawValue)
        }
        self.configuration = configuration
        let broker = RequestBroker()
        self.layer = ViewLayer(
            source: views, ownerUID: configuration.ownerUID, othersMayEnter: configuration.othersMayEnter,
            reader: LibraryFileReader(libraryFD: fd), plans: plans, control: control, requests: broker,
            log: configuration.log, recorder: configuration.accessRecorder, representations: configuration.representations)
        self.requests = RequestFiles(broker: broker)
        requests.reads.start()
        self.libraryFD = fd
        self.buffers = ThreadBuffers()
        let queue = sink ?? ChangeQueue(log: configuration.log)
        self.sink = queue
        self.invalidator = Invalidator(changes: queue, log: configuration.log)
        self.ownerPublishes = sink != nil
        self.startTime = Self.fileTime(nanoseconds: SystemClock.wallNanoseconds())
        ChangeDrain.start(queue, invalidator: invalidator) { [weak self] in self?.prepareRepresentations() }
    }

    deinit {
        requests.reads.stop()
        sink.close()
        FileDescriptor(rawValue: libraryFD).close()
    }

    /// The tree requests are answered from right now.
    public var tree: ViewTree { layer.tree }

    /// Has the kernel drop the entries, attributes, pages and listings a change of the
    /// apps' access touched, for views whose owner does not publish its changes itself (the
    /// tests' in-memory views): published to the file system's sink as the owner would,
    /// waiting for the kernel so that a `.picker` write returns only once a revoked file is
    /// gone. With the owner's sink (the daemon) the change was published when it was made,
    /// before this is called: nothing is sent twice.
    public func forget(_ changes: ViewTreeChanges) {
        guard !ownerPublishes else { return }
        sink.begin(.access)
        sink.end(.access, forgetting: changes)
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
