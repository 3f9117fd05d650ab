import PhotoCatalog
import PhotoCore
import SystemKit

/// The daemon's `.picker`, and `photofs select` and picks over its socket: hands each write
/// to the library state (parser, executor, catalog), which publishes what changed before
/// the write returns, and turns a refusal into the `ViewLayerError` the writer's errno
/// comes from and the one-line reason the CLI gets over the picker socket.
public struct PickerControl: ControlHandling {
    public let state: LibraryState
    /// The mountpoint, so targets may be given as absolute paths inside the mount.
    public let mountpoint: [UInt8]
    let log: DaemonLog

    public init(state: LibraryState, mountpoint: [UInt8], log: DaemonLog) {
        self.state = state
        self.mountpoint = mountpoint
        self.log = log
    }

    public func execute(_ bytes: [UInt8], caller: UInt32) -> ControlOutcome { execute(bytes, caller: caller, exactIDs: false) }

    /// `execute`; with `exactIDs` a `select` grants exactly the ids it names (a picker's pick,
    /// which chose each group member itself by the app's filter and the request's media).
    /// The success's changes are already published (`LibraryState`'s sink).
    public func execute(_ bytes: [UInt8], caller: UInt32, exactIDs: Bool) -> ControlOutcome {
        let resolver = FolderPathResolver(mountpoint: mountpoint, assets: state.current.assets)
        do throws(LibraryState.WriteError) {
            let outcome = try state.execute(write: bytes, resolver: resolver, now: SystemClock.wallNanoseconds(), exactIDs: exactIDs)
            let count = outcome.changes.count
            log.info(
                "picker: uid \(caller) applied a write (\(count) change\(count == 1 ? "" : "s"))",
                apps: Set(outcome.changes.map(Self.app(of:))).sorted())
            return .success(changes: outcome.forget)
        } catch {
            switch error {
            case .refused(let reason):
                // A warning: `journalctl -p warning` shows what the daemon turned down.
                log.warning("picker: uid \(caller) write refused: \(reason.errnoKind.rawValue)")
                return .failure(ViewLayerError(reason.errnoKind), reason: reason.reason)
            case .catalog(let reason):
                log.error("picker: the catalog could not save a write: \(reason)")
                return .failure(.notSaved, reason: "the catalog could not save the change: \(reason)")
            }
        }
    }

    /// The app a change is about, for the log line's journal fields.
    private static func app(of change: AccessChange) -> String {
        switch change {
        case .appAdded(let name), .appRemoved(let name), .appChanged(let name), .reordered(let name): name
        case .granted(let name, _), .revoked(let name, _): name
        }
    }

    public func render() -> [UInt8] { state.renderedBytes() }
}
