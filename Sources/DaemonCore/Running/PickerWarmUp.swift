import PhotoCore
import SystemKit

/// Runs what a `.picker` select runs, once, before the mount is ready, on copies that are
/// then dropped: the command parsed and applied to a copy of the access state, and the
/// views patched for it into a tree nobody sees. Nothing is written, kept or published.
///
/// The first select after a mount of a large library spent several milliseconds more than
/// the next ones in the Swift runtime's first use of that code (type metadata and protocol
/// conformances looked up and cached on first use), which is the same for any state: paid
/// here, before ready, it is not paid by the first app that asks.
public enum PickerWarmUp {
    /// Selects the first asset into an app (the first by name, or a new one) of a copy of
    /// `state`'s access state, and patches a copy of its views with the result.
    /// `noContentIdentifiers`: the catalog was just seen to hold none (the groups are then
    /// settled without reading it).
    public static func run(state: LibraryState, filters: some AppFilterResolving, noContentIdentifiers: Bool = false) {
        let current = state.current
        guard let asset = current.snapshot.assets.first else { return }
        let before = AccessState(current.snapshot)
        let app = before.apps.keys.min()
        let write = (app == nil ? "app add warm-up\n" : "") + "select \(app ?? "warm-up") \(asset.id.rawValue)\n"
        let now = SystemClock.wallNanoseconds()
        // The asset groups are settled here only when there can be none (a pass over a byte
        // an asset): otherwise the work after ready derives them (a pass that hashes the raw
        // files' names and reads the identifiers), and the ready path must not. Whether the
        // catalog holds identifiers was looked at before its first write began: asking it
        // now would wait for that write, which holds it (`FirstWritePreparation`).
        let settled = noContentIdentifiers && current.assets.settleGroupsIfNone(knownWithoutIdentifiers: true)
        let assets = settled ? current.assets : current.assets.ignoringGroups()
        guard let (after, _) = try? PickerExecutor.apply(write: Array(write.utf8), to: before, assets: assets, now: now) else { return }
        _ = state.views.applyingAccess(apps: after.apps, grants: after.grants, filters: filters, now: now)
    }
}
