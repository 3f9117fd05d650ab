import MediaFormats

/// One name in the mounted tree: a directory, the control file, or one asset as one view
/// shows it. The same asset in two views is two nodes with two inodes, because a view may
/// serve different bytes (redaction) and must not share page cache with another.
///
/// Parts store nodes as `PartNode`s (the name in the part's `NameArena`); a `ViewNode` is
/// made from one when a query asks for it, or, for a file of a library view, from its
/// directory's `LibraryDirectory`.
public struct ViewNode: Sendable {
    /// The inode number the kernel sees; stable per (view directory, asset) across snapshots.
    public let inode: UInt64
    /// The inode of the directory that holds this node (the root holds itself).
    public let parent: UInt64
    /// The name in the parent directory, as bytes (may be any bytes but `/` and NUL).
    public var name: [UInt8] {
        switch storedName {
        case .arena(let names, let span): names.name(span)
        case .bytes(let bytes): bytes
        }
    }
    /// Where the name lies: in the arena of the part the node was read from (copied out
    /// only when asked for: a lookup or a listing page needs none), or its own bytes.
    private let storedName: StoredName

    private enum StoredName: Sendable {
        case arena(NameArena, NameSpan)
        case bytes([UInt8])
    }
    /// Who may see the node: decides lookups, listings, ownership and mode bits.
    public let scope: ViewScope
    /// Children in listing order (directories only; node indices into the part).
    var children: [Int32]
    public internal(set) var kind: ViewNodeKind
    /// What a file serves: the asset's bytes, or the compatible JPEG made from them (which
    /// has its own name, inode and size).
    public let representation: FileRepresentation

    /// The node stored as `stored`, its name read from `names`, its scope from `scopes`.
    init(_ stored: PartNode, names: NameArena, scopes: [ViewScope]) {
        inode = stored.inode
        parent = stored.parent
        storedName = .arena(names, stored.name)
        scope = scopes[Int(stored.scope)]
        children = stored.children
        kind = stored.kind
        representation = stored.representation
    }

    /// The file of a library view that shows the asset at `asset` (the owner's, unredacted).
    init(libraryFile inode: UInt64, parent: UInt64, name: [UInt8], asset: Int32) {
        self.inode = inode
        self.parent = parent
        storedName = .bytes(name)
        scope = .owner
        children = []
        kind = .file(asset: asset, policy: .keep, metadata: .keep)
        representation = .original
    }

    /// Whether the node is a directory.
    public var isDirectory: Bool {
        if case .directory = kind { return true }
        return false
    }

    /// Calls `body` with the name's bytes, read in place (valid only during the call).
    public func withName<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storedName {
        case .arena(let names, let span): names.withName(span, body)
        case .bytes(let bytes): bytes.withUnsafeBufferPointer(body)
        }
    }
}

/// A node as a part stores it: its name is a span of the part's `NameArena` and its scope
/// an index into the part's `scopes`, so that a node holds no buffer or string of its own
/// (only a directory's `children`) and takes 40 bytes.
struct PartNode: Sendable {
    let inode: UInt64
    let parent: UInt64
    let name: NameSpan
    /// The node's scope: an index into its part's `scopes`.
    let scope: UInt8
    /// Children in listing order (directories only; node indices into the part).
    var children: [Int32]
    // `kind` and `representation` come last so that they share one eight-byte word: a
    // library of 1,000,000 assets holds four million nodes.
    var kind: ViewNodeKind
    let representation: FileRepresentation

    init(
        inode: UInt64, parent: UInt64, name: NameSpan, kind: ViewNodeKind, scope: UInt8, representation: FileRepresentation = .original
    ) {
        self.inode = inode
        self.parent = parent
        self.name = name
        self.kind = kind
        self.scope = scope
        self.representation = representation
        self.children = []
    }

    /// Whether the node is a directory.
    var isDirectory: Bool {
        if case .directory = kind { return true }
        return false
    }
}

/// What a node is.
public enum ViewNodeKind: Hashable, Sendable {
    case directory
    /// The `.picker` control file.
    case picker
    /// One asset (index into the tree's snapshot `assets`) served under a location and a
    /// metadata policy: `keep` for the owner's library views, the app's in an app view.
    case file(asset: Int32, policy: LocationPolicy, metadata: MetadataPolicy)
}

/// Which part of the mount a node belongs to, for the access model.
public enum ViewScope: Hashable, Sendable {
    /// The root and `apps/`: every permitted caller walks through them.
    case shared
    /// `library/` and `.picker`: the mounting user (and root) only.
    case owner
    /// `apps/<name>` and what it holds: the owner and the uid bound to that app.
    case app(String)
}
