/// One change of the live state as its owner publishes it: which part changed and what the
/// kernel must forget of the views it replaced. What else follows a change is decided
/// here, once, for every path that makes one.
public struct StateChange: Sendable, Equatable {
    /// Which part of the state changed.
    public enum Kind: Sendable, Equatable {
        /// The library's part: the assets (a load, an index run of the watcher or the
        /// startup scan). Its invalidations are computed from views that still answer
        /// meanwhile, so the change counts as under way while it is made (`ChangeSink`).
        case library
        /// The apps and their grants alone (a picker write, `photofs select`, a pick, a
        /// grant that ended by itself): only the apps' parts are rebuilt, whole.
        case access
    }

    public let kind: Kind
    /// What the kernel must forget (empty: only the kept listings are dropped).
    public let forget: ViewTreeChanges

    public init(kind: Kind, forget: ViewTreeChanges) {
        self.kind = kind
        self.forget = forget
    }

    /// Whether the compatible JPEGs the new views serve are made ahead of their first
    /// `stat`: after every change (a select adds files, a library change replaces them).
    public var preparesRepresentations: Bool { true }

    /// Whether the pages the replaced views held are given back to the system: after a
    /// library change (a new tree of every asset); not after an access change, which frees
    /// one app's part and would pay milliseconds to trim a large heap.
    public var releasesFreedMemory: Bool { kind == .library }
}

/// Where the one owner of the live state publishes each change, once: the daemon's
/// `ChangeQueue`, which the file system drains (invalidations, compatible JPEGs), or a
/// test's sink that records what it is given. No caller forwards a change by hand.
///
/// The owner brackets each change itself (`begin` before the new views are computed, `end`
/// once they are installed): the sink is given values and runs nothing of the owner's.
/// It lives beside the views rather than with their owner so that the FUSE adapter can
/// subscribe without depending on the catalog.
public protocol ChangeSink: Sendable {
    /// A change of `kind` begins, before its new views are computed. A `.library` change
    /// counts as under way from here until its invalidations are queued (`end`), so that
    /// replies made from the old views meanwhile are dropped again.
    func begin(_ kind: StateChange.Kind)

    /// The change `begin` announced is installed: publishes what the kernel must forget of
    /// the old views (nil: nothing changed or the change failed; nothing is published)
    /// before returning, so a picker write returns only once what it revoked is gone.
    /// Called once for every `begin`.
    func end(_ kind: StateChange.Kind, forgetting forget: ViewTreeChanges?)
}
