/// Who is asking, in terms of the access model: the mounting user (or root) sees
/// everything, a uid bound to apps sees those apps' views and the directories that lead
/// there, anyone else is refused.
public enum ViewCaller: Hashable, Sendable {
    case owner
    case apps(Set<String>)
    case stranger
}

extension ViewTree {
    /// Classifies a request's uid.
    public func caller(uid: UInt32, mountOwner: UInt32) -> ViewCaller {
        if uid == mountOwner || uid == 0 { return .owner }
        if let apps = appsByUID[uid] { return .apps(apps) }
        return .stranger
    }

    /// Whether `caller` may see `node` at all (lookup, stat, open, listing).
    public func isVisible(_ node: ViewNode, to caller: ViewCaller) -> Bool {
        switch caller {
        case .owner: return true
        case .stranger: return false
        case .apps:
            switch node.scope {
            case .shared: return true
            case .owner: return false
            case .app(let name): return AppVisibility.mayEnter(name, caller: caller)
            }
        }
    }

    /// The uid bound to the app whose view holds `node`, if any: that uid owns the view.
    public func boundUID(of node: ViewNode) -> UInt32? {
        guard case .app(let name) = node.scope else { return nil }
        return snapshot.apps[name]?.uid
    }
}
