import CFuse
import Glibc
import PhotoCore

/// LOOKUP: the view layer resolves the name (`ViewLayer.lookup`); this builds the entry.
/// Inode numbers are derived from the view tree, not allocated, so there is no lookup
/// count to keep, except for `.picker`'s renderings (`PickerGenerations`, which FORGET
/// counts down).
extension PhotoFileSystem {
    func lookup(_ request: fuse_req_t, _ parent: UInt64, _ name: UnsafePointer<CChar>?) {
        respond(request, "lookup") { () throws(ViewLayerError) -> Reply in
            guard let name else { throw .invalidArgument }
            statWalkers.lookedUp(tid: fuse_req_ctx(request)?.pointee.pid ?? 0, parent: parent)
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let bytes = Array(UnsafeRawBufferPointer(start: name, count: strlen(name)))
            switch try layer.lookup(parent: Self.treeInode(parent), name: bytes, caller: caller, in: tree) {
            case .special(let special):
                return .entry(specialEntry(special, in: tree))
            case .node(let inode):
                guard let child = tree.node(inode: inode) else { throw .notFound }
                guard child.kind == .picker else { return .entry(entry(for: child, in: tree)) }
                let text = currentPickerText()
                controlFile.generations.retain(text)
                return .entry(entry(for: child, in: tree, picker: text))
            }
        }
    }
}
