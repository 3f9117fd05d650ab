import FuseKit
import Glibc
import PhotoCore
import Synchronization

/// A real `ControlHandling` over an in-memory access state (the picker parser, executor and
/// renderer, without the catalog): enough to test the control file through the kernel.
final class MemoryPicker: ControlHandling {
    private let state: Mutex<LibrarySnapshot>
    /// The views the writes replace (the mount serves these).
    let views: MemoryViews

    init(_ snapshot: LibrarySnapshot) {
        state = Mutex(snapshot)
        views = MemoryViews(snapshot)
    }

    func execute(_ bytes: [UInt8], caller: UInt32) -> ControlOutcome {
        state.withLock { snapshot in
            do throws(PickerError) {
                let statements = try PickerCommandParser.parse(bytes)
                let (access, _) = try PickerExecutor.apply(
                    statements, to: AccessState(snapshot), assets: AssetIndex(snapshot.assets), now: 1)
                snapshot.apps = access.apps
                snapshot.grants = access.grants
                return .success(changes: views.install(snapshot, accessOnly: true))
            } catch {
                return .failure(ViewLayerError(error.errnoKind), reason: error.reason)
            }
        }
    }

    func render() -> [UInt8] {
        state.withLock { Array(PickerRenderer.render(AccessState($0), assets: AssetIndex($0.assets)).utf8) }
    }
}
