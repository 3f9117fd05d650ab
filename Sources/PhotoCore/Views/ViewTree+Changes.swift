import Dispatch
import Synchronization

/// What the kernel must forget when one tree replaces another: the names that no longer
/// lead where they did, and the inodes whose attributes, bytes or listing changed or that
/// are gone (their cached pages must not be served to a descriptor opened earlier).
public struct ViewTreeChanges: Sendable, Equatable {
    /// (directory inode, name) pairs to drop from the kernel's name cache.
    public var removedEntries: [ViewEntry] = []
    /// Inodes whose cached attributes, pages or directory listing must be dropped.
    public var invalidatedInodes: [UInt64] = []

    public init(removedEntries: [ViewEntry] = [], invalidatedInodes: [UInt64] = []) {
        self.removedEntries = removedEntries
        self.invalidatedInodes = invalidatedInodes
    }

    public var isEmpty: Bool { removedEntries.isEmpty && invalidatedInodes.isEmpty }
}

/// One name in one directory.
public struct ViewEntry: Hashable, Sendable {
    public var parent: UInt64
    public var name: [UInt8]

    public init(parent: UInt64, name: [UInt8]) {
        self.parent = parent
        self.name = name
    }
}

extension ViewTree {
    /// The invalidations that take the kernel from this tree to `new`: only the parts that
    /// differ are compared (O(an app's grants) after a grant change, O(nodes) after a
    /// library change).
    public func changes(to new: ViewTree) -> ViewTreeChanges {
        var combined = ViewTreeChanges()
        if library !== new.library {
            combined = libraryChanges(to: new)
        }
        let apps = appChanges(to: new)
        combined.removedEntries += apps.removedEntries
        combined.invalidatedInodes += apps.invalidatedInodes
        return combined
    }

    /// The invalidations of the app parts that `new` does not share with this tree (but the
    /// apps in `skipping`, whose invalidations the caller has), and of `apps/` when the set
    /// of app directories changed.
    func appChanges(to new: ViewTree, skipping: Set<String> = []) -> ViewTreeChanges {
        var combined = ViewTreeChanges()
        let newParts = Dictionary(uniqueKeysWithValues: new.apps.map { ($0.name, $0.part) })
        for app in apps where !skipping.contains(app.name) {
            let replacement = newParts[app.name]
            guard replacement !== app.part else { continue }
            let part = changes(of: app.part, to: new, in: replacement, among: 0..<app.part.nodes.count)
            combined.removedEntries += part.removedEntries
            combined.invalidatedInodes += part.invalidatedInodes
        }
        if apps.map(\.part.top.inode) != new.apps.map(\.part.top.inode) || apps.map(\.part.top.name) != new.apps.map(\.part.top.name) {
            combined.invalidatedInodes.append(ViewInode.apps)
        }
        return combined
    }

    /// The library part's invalidations (the root's and `apps/`'s listings excepted: the
    /// root's never changes, `apps/` lists the app parts).
    private func libraryChanges(to new: ViewTree) -> ViewTreeChanges {
        // Two halves on two threads: on 100,000 assets (400,000 nodes) this is a fifth of a
        // rebuild, spent mostly waiting on memory.
        let parts = Mutex([ViewTreeChanges](repeating: ViewTreeChanges(), count: 2))
        let count = library.nodes.count
        let middle = count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let part = changes(of: library, to: new, in: new.library, among: half == 0 ? 0..<middle : middle..<count)
            parts.withLock { $0[half] = part }
        }
        var combined = parts.withLock { $0[0] }
        let second = parts.withLock { $0[1] }
        combined.removedEntries += second.removedEntries
        combined.invalidatedInodes += second.invalidatedInodes
        let files = fileChanges(to: new)
        combined.removedEntries += files.removedEntries
        combined.invalidatedInodes += files.invalidatedInodes
        return combined
    }

    /// The invalidations of the library views' files: each file that left or moved to
    /// another directory or name, each whose attributes changed, and each directory whose
    /// files or their names changed.
    private func fileChanges(to new: ViewTree) -> ViewTreeChanges {
        var changes = ViewTreeChanges()
        let (assets, newAssets) = (snapshot.assets, new.snapshot.assets)
        for case let directory? in files.directories {
            let replacement = new.files.directory(inode: directory.inode)
            if replacement !== directory, !Self.sameFiles(directory, over: assets, replacement, over: newAssets) {
                changes.invalidatedInodes.append(directory.inode)
            }
            // A directory never named showed no file: nothing of its files is cached.
            guard directory.isNamed else { continue }
            for position in directory.members(in: assets) {
                let inode = ViewInode.libraryFile(view: directory.view, asset: assets[Int(position)].id)
                let old = ViewNode(
                    libraryFile: inode, parent: directory.inode, name: directory.name(of: position, in: assets), asset: position)
                guard let current = new.files.node(inode: inode, assets: newAssets, firstByID: new.firstByID) else {
                    changes.removedEntries.append(ViewEntry(parent: old.parent, name: old.name))
                    changes.invalidatedInodes.append(inode)
                    continue
                }
                if current.parent != old.parent || current.name != old.name {
                    changes.removedEntries.append(ViewEntry(parent: old.parent, name: old.name))
                }
                if !sameAttributes(old, current, in: new) { changes.invalidatedInodes.append(inode) }
            }
        }
        // A directory that was here without files and got its first.
        for case let directory? in new.files.directories
        where files.directory(inode: directory.inode) == nil && location(of: directory.inode) != nil {
            changes.invalidatedInodes.append(directory.inode)
        }
        return changes
    }

    /// Whether two directories list the same files under the same names in the same order.
    private static func sameFiles(
        _ old: LibraryDirectory, over assets: ChunkedArray<Asset>, _ new: LibraryDirectory?, over newAssets: ChunkedArray<Asset>
    ) -> Bool {
        guard let new, old.count == new.count else { return false }
        if !old.isNamed {
            // Never named, so never listed: the same assets (ids, paths and dates: what names
            // and orders them) are the same files. Members come in no particular order
            // (positions move): compared by id.
            let byID = { (members: [Int32], assets: ChunkedArray<Asset>) -> [Int32] in
                members.map { (assets[Int($0)].id.number, $0) }.sorted { $0.0 < $1.0 }.map(\.1)
            }
            return zip(byID(old.unorderedMembers, assets), byID(new.unorderedMembers, newAssets)).allSatisfy { a, b in
                assets[Int(a)].id == newAssets[Int(b)].id && assets[Int(a)].path == newAssets[Int(b)].path
                    && assets[Int(a)].effectiveDate.sortKey == newAssets[Int(b)].effectiveDate.sortKey
            }
        }
        // Shown, and named again later: the new names may differ from those shown.
        guard new.isNamed else { return false }
        for (a, b) in zip(old.members(in: assets), new.members(in: newAssets)) {
            guard assets[Int(a)].id == newAssets[Int(b)].id else { return false }
            let same = old.withName(of: a, in: assets) { x in new.withName(of: b, in: newAssets) { y in x.elementsEqual(y) } }
            if !same { return false }
        }
        return true
    }

    /// The invalidations of the nodes at `positions` of `old` (a part of this tree) when
    /// `replacement` (a part of `new`, or nil when the part is gone) replaces it.
    private func changes(of old: ViewPart, to new: ViewTree, in replacement: ViewPart?, among positions: Range<Int>) -> ViewTreeChanges {
        var changes = ViewTreeChanges()
        for position in positions where old.isLive(position) {
            let node = old.nodes[position]
            guard node.inode != ViewInode.root, node.inode != ViewInode.apps else { continue }
            guard let replacement, let found = replacement.position(of: node.inode, hash: NodeTable.hash(inode: node.inode)) else {
                changes.removedEntries.append(ViewEntry(parent: node.parent, name: node.name))
                changes.invalidatedInodes.append(node.inode)
                continue
            }
            let current = replacement.nodes[Int(found)]
            if current.parent != node.parent || current.name != node.name {
                changes.removedEntries.append(ViewEntry(parent: node.parent, name: node.name))
            }
            if !sameAttributes(node, current, in: new) || !Self.sameListing(node, in: old, current, in: replacement) {
                changes.invalidatedInodes.append(node.inode)
            }
        }
        return changes
    }

    private func sameAttributes(_ old: ViewNode, _ new: ViewNode, in newTree: ViewTree) -> Bool {
        guard old.kind.isSameShape(as: new.kind), old.representation == new.representation, boundUID(of: old) == newTree.boundUID(of: new)
        else { return false }
        guard case .file(_, let oldPolicy, let oldMetadata) = old.kind, case .file(_, let newPolicy, let newMetadata) = new.kind else {
            return true
        }
        guard oldPolicy == newPolicy, oldMetadata == newMetadata, let a = assetPosition(of: old), let b = newTree.assetPosition(of: new)
        else { return false }
        // Field by field through the arrays: copying 400,000 whole assets made a reload slow.
        let (before, after) = (snapshot.assets, newTree.snapshot.assets)
        // The stored plans serve one version of a file, so the same version has the same plans.
        return before[a].isSameFile(as: after[b]) && before[a].withheld == after[b].withheld
    }

    private static func sameListing(_ old: ViewNode, in oldPart: ViewPart, _ new: ViewNode, in newPart: ViewPart) -> Bool {
        guard old.children.count == new.children.count else { return false }
        for (a, b) in zip(old.children, new.children) {
            let (x, y) = (oldPart.nodes[Int(a)], newPart.nodes[Int(b)])
            if x.inode != y.inode || x.name != y.name { return false }
        }
        return true
    }
}

extension ViewNodeKind {
    /// Same kind of node, ignoring which snapshot index a file points at.
    func isSameShape(as other: ViewNodeKind) -> Bool {
        switch (self, other) {
        case (.directory, .directory), (.picker, .picker), (.file, .file): true
        default: false
        }
    }
}
