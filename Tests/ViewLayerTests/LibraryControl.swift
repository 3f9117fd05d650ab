import DaemonCore
import PhotoCatalog
import PhotoCore

/// `.picker` over a real catalog-backed `LibraryState`, as the daemon's picker is, without
/// the daemon's logging and mount-path resolution.
struct LibraryControl: ControlHandling {
    let state: LibraryState

    func execute(_ bytes: [UInt8], caller: UInt32) -> ControlOutcome {
        do throws(LibraryState.WriteError) {
            return .success(changes: try state.execute(write: bytes, now: 1).forget)
        } catch {
            switch error {
            case .refused(let reason): return .failure(ViewLayerError(reason.errnoKind), reason: reason.reason)
            case .catalog(let reason): return .failure(.notSaved, reason: "\(reason)")
            }
        }
    }

    func render() -> [UInt8] { state.renderedBytes() }
}
