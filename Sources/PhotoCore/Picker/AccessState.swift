/// Apps and their ordered grants: the part of the catalog that the picker changes.
///
/// A plain value: the executor changes a copy and hands it back only when every command
/// of a write succeeded, which is what makes a write one transaction.
public struct AccessState: Hashable, Sendable {
    /// Every app, by name.
    public var apps: [String: App]
    /// Each app's grants, in selection order (an app without grants may be absent).
    public var grants: [String: [Grant]]

    public init(apps: [String: App] = [:], grants: [String: [Grant]] = [:]) {
        self.apps = apps
        self.grants = grants
    }

    /// The access part of a snapshot.
    public init(_ snapshot: LibrarySnapshot) {
        self.init(apps: snapshot.apps, grants: snapshot.grants)
    }
}

/// One effect of a successful write, for the FUSE layer (what to invalidate) and the
/// catalog (what to persist). Computed by comparing the state before and after, so a
/// select undone by a deselect in the same write leaves no change behind.
public enum AccessChange: Hashable, Sendable {
    case appAdded(String)
    /// The app and every grant it had are gone.
    case appRemoved(String)
    /// Its filter, location policy, limit or uid changed: filter, policy and uid change
    /// what the view shows or serves, so all of its entries should be invalidated.
    case appChanged(String)
    case granted(app: String, asset: AssetID)
    case revoked(app: String, asset: AssetID)
    /// The same assets stay selected in another order (a deselect and select again).
    case reordered(app: String)

    /// The changes that turn `old` into `new`: per app in name order, first the app
    /// itself, then revocations in old selection order, then grants in new selection order.
    public static func between(_ old: AccessState, _ new: AccessState) -> [AccessChange] {
        var changes: [AccessChange] = []
        let names = Set(old.apps.keys).union(new.apps.keys).union(old.grants.keys).union(new.grants.keys).sorted()
        for name in names {
            let before = old.apps[name]
            let after = new.apps[name]
            switch (before, after) {
            case (nil, .some): changes.append(.appAdded(name))
            case (.some, nil): changes.append(.appRemoved(name))
            case (.some(let b), .some(let a)) where b != a: changes.append(.appChanged(name))
            default: break
            }
            // Most writes touch one app: the others' lists are the same arrays.
            if old.grants[name] ?? [] == new.grants[name] ?? [] { continue }
            // The common start (all of the old list after a select) is neither revoked,
            // granted nor moved: only what follows is compared.
            let (oldList, newList) = (old.grants[name] ?? [], new.grants[name] ?? [])
            var prefix = 0
            while prefix < oldList.count, prefix < newList.count, oldList[prefix].asset == newList[prefix].asset { prefix += 1 }
            let oldIDs = oldList[prefix...].map(\.asset)
            let newIDs = newList[prefix...].map(\.asset)
            let oldSet = Set(oldIDs)
            let newSet = Set(newIDs)
            for id in oldIDs where !newSet.contains(id) { changes.append(.revoked(app: name, asset: id)) }
            for id in newIDs where !oldSet.contains(id) { changes.append(.granted(app: name, asset: id)) }
            if oldIDs.filter(newSet.contains) != newIDs.filter(oldSet.contains) { changes.append(.reordered(app: name)) }
        }
        return changes
    }
}
