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
    /// The invalidations that take the kernel from this tree to `new` (O(nodes)).
    public func changes(to new: ViewTree) -> ViewTreeChanges {
        // Two halves on two threads: on 100,000 assets (400,000 nodes) this is a fifth of a
        // rebuild, spent mostly waiting on memory.
        let parts = Mutex([ViewTreeChanges](repeating: ViewTreeChanges(), count: 2))
        let middle = nodes.count / 2
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            let part = changes(to: new, among: half == 0 ? 0..<middle : middle..<nodes.count)
            parts.withLock { $0[half] = part }
        }
        var combined = parts.withLock { $0[0] }
        let second = parts.withLock { $0[1] }
        combined.removedEntries += second.removedEntries
        combined.invalidatedInodes += second.invalidatedInodes
        if let oldRoot = node(inode: ViewInode.root), let newRoot = new.node(inode: ViewInode.root), !sameListing(oldRoot, newRoot, in: new)
        {
            combined.invalidatedInodes.append(ViewInode.root)
        }
        return combined
    }

    /// The invalidations of the old nodes at `positions` (the root's listing excepted).
    private func changes(to new: ViewTree, among positions: Range<Int>) -> ViewTreeChanges {
        var changes = ViewTreeChanges()
        for position in positions {
            let old = nodes[position]
            guard old.inode != ViewInode.root else { continue }
            guard let current = new.node(inode: old.inode) else {
                changes.removedEntries.append(ViewEntry(parent: old.parent, name: old.name))
                changes.invalidatedInodes.append(old.inode)
                continue
            }
            if current.parent != old.parent || current.name != old.name {
                changes.removedEntries.append(ViewEntry(parent: old.parent, name: old.name))
            }
            if !sameAttributes(old, in: self, current, in: new) || !sameListing(old, current, in: new) {
                changes.invalidatedInodes.append(old.inode)
            }
        }
        return changes
    }

    private func sameAttributes(_ old: ViewNode, in oldTree: ViewTree, _ new: ViewNode, in newTree: ViewTree) -> Bool {
        guard old.kind.isSameShape(as: new.kind), oldTree.boundUID(of: old) == newTree.boundUID(of: new) else { return false }
        guard case .file(_, let oldPolicy) = old.kind, case .file(_, let newPolicy) = new.kind else { return true }
        guard oldPolicy == newPolicy, let a = oldTree.assetPosition(of: old), let b = newTree.assetPosition(of: new) else { return false }
        // Field by field through the arrays: copying 400,000 whole assets made a reload slow.
        let (before, after) = (oldTree.snapshot.assets, newTree.snapshot.assets)
        guard before[a].id == after[b].id, before[a].size == after[b].size, before[a].mtimeNanoseconds == after[b].mtimeNanoseconds
        else { return false }
        return oldPolicy == .keep || before[a].redaction.plan(for: oldPolicy) == after[b].redaction.plan(for: newPolicy)
    }

    private func sameListing(_ old: ViewNode, _ new: ViewNode, in newTree: ViewTree) -> Bool {
        guard old.children.count == new.children.count else { return false }
        for (a, b) in zip(old.children, new.children) {
            let (x, y) = (nodes[Int(a)], newTree.nodes[Int(b)])
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
