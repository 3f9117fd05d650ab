import MediaFormats

/// The mount's behaviour without the kernel: who may see what, what a name resolves to,
/// what `stat` and a listing show and which bytes a read serves (redaction patches
/// applied), the control file and the request files included. Plain Swift over the
/// current published views (`ViewSource`); the FUSE adapter decodes a request, calls one
/// of these, turns a `ViewLayerError` into an errno and replies, and tests call the same
/// functions with no mount and no root.
///
/// Every function takes the tree it answers from, so an adapter takes the published tree
/// once per request and works on that immutable value; the plain forms (`lookup(parent:
/// name:uid:)`, ...) take the current one.
public struct ViewLayer: Sendable {
    /// The owner of the views; replaces them, the layer only reads them.
    public let source: any ViewSource
    /// The mounting user: sees everything (as does root).
    public let ownerUID: UInt32
    /// Whether users other than the owner may enter: then an app's view belongs to its
    /// bound uid (else every view is the owner's, see `attributes`).
    public let othersMayEnter: Bool
    /// Reads library files.
    public let reader: any SourceReading
    /// Where a read of a redacted view fetches the file's plan (the catalog).
    public let plans: any RedactionPlanSource
    /// The plans of the files read lately.
    let planCache = PlanCache()
    /// The picker behind `.picker`; nil when the mount has none.
    public let control: (any ControlHandling)?
    /// The apps' pick requests.
    public let requests: RequestBroker
    /// Told of each READ an app's view serves (the access log); nil records nothing.
    public let recorder: (any AccessRecorder)?
    /// Makes the files of representations other than the original (compatible JPEGs);
    /// without one, such files cannot be looked up or read.
    public let representations: (any RepresentationProviding)?
    /// Where the layer says why it refused what only a log can explain (a malformed pick
    /// request and the column it breaks at). Never given a coordinate.
    public let log: @Sendable (String) -> Void

    public init(
        source: any ViewSource, ownerUID: UInt32, othersMayEnter: Bool = false, reader: any SourceReading,
        plans: any RedactionPlanSource, control: (any ControlHandling)?, requests: RequestBroker = RequestBroker(),
        log: @escaping @Sendable (String) -> Void = { _ in },
        recorder: (any AccessRecorder)? = nil, representations: (any RepresentationProviding)? = nil
    ) {
        self.source = source
        self.ownerUID = ownerUID
        self.othersMayEnter = othersMayEnter
        self.reader = reader
        self.plans = plans
        self.control = control
        self.requests = requests
        self.log = log
        self.recorder = recorder
        self.representations = representations
    }

    /// The tree requests are answered from right now.
    public var tree: ViewTree { source.views }

    // MARK: who is asking

    /// The caller a uid is; strangers are refused outright (EACCES).
    public func caller(uid: UInt32, in tree: ViewTree) throws(ViewLayerError) -> ViewCaller {
        let caller = tree.caller(uid: uid, mountOwner: ownerUID)
        if caller == .stranger { throw .permissionDenied }
        return caller
    }

    /// The node for `inode` if `caller` may see it; ENOENT otherwise.
    public func visibleNode(_ inode: UInt64, in tree: ViewTree, to caller: ViewCaller) throws(ViewLayerError) -> ViewNode {
        guard let node = tree.node(inode: inode), tree.isVisible(node, to: caller) else { throw .notFound }
        return node
    }

    // MARK: lookup

    /// What `name` in directory `parent` is for `caller`: ENOENT for what it may not see.
    public func lookup(parent: UInt64, name: [UInt8], caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) -> ViewLookup {
        let directory = try visibleNode(parent, in: tree, to: caller)
        guard directory.isDirectory else { throw .notDirectory }
        if let special = specialFile(named: name, in: directory) {
            guard isVisible(special, to: caller, in: tree) else { throw .notFound }
            return .special(special)
        }
        guard let child = tree.lookup(parent: parent, name: name), tree.isVisible(child, to: caller) else { throw .notFound }
        try checkRepresentation(of: child, in: tree)
        return .node(inode: child.inode)
    }

    // MARK: attributes

    /// The node a GETATTR of `inode` answers for. A GETATTR names an inode the kernel holds:
    /// names are resolved by `lookup`, which answers ENOENT for what the caller may not
    /// see, and a revocation drops the names the kernel cached. So an inode that left the
    /// tree, or that this caller may no longer see, is one held open (a descriptor, whose
    /// `fstat` names no file, or a working directory) and answers EACCES like its reads.
    public func attributedNode(_ inode: UInt64, caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) -> ViewNode {
        guard let node = tree.node(inode: inode), tree.isVisible(node, to: caller) else { throw .permissionDenied }
        try checkRepresentation(of: node, in: tree)
        return node
    }

    /// The attributes of a node. Ownership and mode bits restate the access model, so the
    /// kernel (with `default_permissions` under `--allow-other`) refuses a walk the layer
    /// would refuse, even from a cached dentry: `library/` 0500 and `.picker` 0600 belong
    /// to the owner, an app's directory 0500 to its bound uid (or the owner), everything
    /// else is 0555/0444. A private mount lets only its owner in, so there every view is
    /// the owner's. `.picker`'s size is `pickerSize` (that of the rendering the caller
    /// reads), or the current rendering's when nil.
    public func attributes(of node: ViewNode, in tree: ViewTree, pickerSize: Int64? = nil) -> ViewAttributes {
        let uid = othersMayEnter ? tree.boundUID(of: node) ?? ownerUID : ownerUID
        switch node.kind {
        case .directory:
            let closed = node.inode == ViewInode.library || (node.parent == ViewInode.apps && node.scope != .shared)
            return ViewAttributes(
                inode: node.inode, kind: .directory, permissions: closed ? 0o500 : 0o555, uid: uid, size: 0,
                changed: tree.directoryTimes.time(of: node.inode))
        case .picker:
            let size = pickerSize ?? Int64(pickerText().count)
            return ViewAttributes(inode: node.inode, kind: .control, permissions: 0o600, uid: uid, size: size, changed: nil)
        case .file:
            // Fields read in place: a listing asks this for every entry, and copying each
            // asset out retains every part of it.
            let assets = tree.snapshot.assets
            guard let position = tree.assetPosition(of: node) else {
                return ViewAttributes(inode: node.inode, kind: .file, permissions: 0o444, uid: uid, size: 0, changed: 0)
            }
            let size = node.representation == .original ? assets[position].size : servedSize(of: node, asset: assets[position])
            return ViewAttributes(
                inode: node.inode, kind: .file, permissions: 0o444, uid: uid, size: max(0, size), changed: assets[position].mtimeNanoseconds
            )
        }
    }

    // MARK: directories

    /// The listing an OPENDIR of `inode` reads: the caller must see the directory.
    public func openDirectory(_ inode: UInt64, caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) -> (ViewNode, ViewListing?) {
        let node = try visibleNode(inode, in: tree, to: caller)
        guard node.isDirectory else { throw .notDirectory }
        return (node, tree.listing(of: inode))
    }

    /// Pages through `listing` from position `offset`: calls `add` with each entry the
    /// caller may see in `current` and the position after it (the next page's offset),
    /// until `add` returns false (the page is full) or the listing ends.
    ///
    /// A listing under way on older views skips what the current views no longer have:
    /// the adapter would otherwise hand the kernel a fresh entry for a name revoked since.
    /// The node given is the current one.
    public func page(
        _ listing: ViewListing?, from offset: Int, caller: ViewCaller, current: ViewTree, _ add: (ViewNode, Int) -> Bool
    ) {
        var position = max(0, offset)
        while let child = listing?.child(at: position) {
            position += 1
            guard let now = current.node(inode: child.inode), now.parent == child.parent, now.name == child.name,
                current.isVisible(now, to: caller), !isWithheldRepresentation(now, in: current)
            else { continue }
            if !add(now, position) { return }
        }
    }

    // MARK: reading

    /// Reads an asset file's bytes as `caller` sees them: the source's bytes at `offset`
    /// with the view's redaction patches applied (for a `--metadata private` view, its
    /// private plan overlaid from the stored form; for a node of another representation,
    /// its made file's bytes), into `buffer`; returns the count. A read
    /// names an inode the kernel had, so one that left the tree (revoked, removed) or that
    /// this caller may not see answers EACCES.
    public func read(
        _ inode: UInt64, caller: ViewCaller, at offset: Int, into buffer: UnsafeMutableRawBufferPointer, in tree: ViewTree
    ) throws(ViewLayerError) -> Int {
        guard let node = tree.node(inode: inode), tree.isVisible(node, to: caller) else { throw .permissionDenied }
        guard case .file(_, let policy, let metadata) = node.kind, let asset = tree.asset(of: node) else { throw .isDirectory }
        guard offset >= 0 else { throw .invalidArgument }
        // A withheld plan never reaches a view (`AppVisibility`): refuse before reading
        // rather than serve the original if it does.
        if asset.withheld.isWithheld(for: policy, metadata: metadata) { throw .permissionDenied }
        if node.representation != .original {
            let count = try readRepresented(node, asset: asset, at: offset, into: buffer)
            if count > 0 { recorder?.recordRead(in: node.scope, of: asset.id) }
            return count
        }
        // Fetched before the source is read, and for this version of the file only: a plan
        // that cannot be had fails the read (never the original bytes).
        let plan = policy == .keep && metadata == .keep ? nil : try servedPlan(of: asset, location: policy, metadata: metadata)
        let count = try reader.read(asset, at: offset, into: buffer)
        let filled = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count])
        switch plan {
        case nil: break
        case .location(let located):
            guard let patches = located.patchesToServe else { throw .permissionDenied }
            if !patches.isEmpty { PatchOverlay.apply(patches, to: filled, at: Int64(offset)) }
        case .privatePlans(let privatePlans):
            // The private plan (location included) is overlaid from its stored form, not decoded.
            guard privatePlans.apply(for: policy, to: filled, at: Int64(offset)) else { throw .permissionDenied }
        }
        if count > 0 { recorder?.recordRead(in: node.scope, of: asset.id) }
        return count
    }

    /// The plan a read of `asset` under both policies overlays: from the layer's cache, or
    /// fetched from `plans` with the plans of the files after it (read ahead, and further
    /// in the background); one of the other kind of view is refused.
    func servedPlan(of asset: Asset, location: LocationPolicy, metadata: MetadataPolicy) throws(ViewLayerError) -> ServedPlan {
        let plans = self.plans
        let plan = try planCache.plan(
            of: asset, location: location, metadata: metadata,
            fetch: { (ahead: Int) throws(ViewLayerError) -> PlanBatch in
                try plans.plans(from: asset, ahead: ahead, location: location, metadata: metadata)
            },
            readAhead: { (cursor: PlanCursor, count: Int) throws(ViewLayerError) -> PlansAhead in
                try plans.plans(at: cursor, count: count, location: location, metadata: metadata)
            })
        switch (plan, metadata) {
        case (.location, .keep), (.privatePlans, .private): return plan
        default: throw .planUnavailable("a plan of the other metadata policy")
        }
    }

    /// The text `.picker` shows when the mount has no picker.
    static let noPicker = Array("photofs: this mount has no picker\n".utf8)
}
