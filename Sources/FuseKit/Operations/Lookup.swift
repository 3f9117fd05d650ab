import CFuse
import PhotoCore
import SystemKit

/// LOOKUP: the view layer resolves the name (`ViewLayer.lookup`) and answers its
/// attributes (`ViewLayer.getattr`); this builds the entry.
/// Inode numbers are derived from the view tree, not allocated, so there is no lookup
/// count to keep, except for `.picker`'s renderings (`PickerGenerations`, which FORGET
/// counts down).
///
/// An entry made from views that changed while it was made is dropped again once it was
/// sent (`Invalidator.redo`): the kernel keeps entries for a day.
extension PhotoFileSystem {
    func lookup(_ request: fuse_req_t, _ parent: UInt64, _ name: UnsafePointer<CChar>?) {
        let epoch = invalidator.epoch
        var answered: (name: [UInt8], inode: UInt64)?
        respond(request, "lookup") { () throws(ViewLayerError) -> Reply in
            guard let name else { throw .invalidArgument }
            let bytes = Array(UnsafeRawBufferPointer(start: name, count: Memory.stringLength(name)))
            statWalkers.lookedUp(tid: fuse_req_ctx(request)?.pointee.pid ?? 0, parent: parent)
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let inode = try layer.lookup(parent: Self.treeInode(parent), name: bytes, caller: caller, in: tree).inode
            // `.picker` answers with its current rendering, which the kernel now holds.
            let text = inode == ViewInode.picker ? currentPickerText() : nil
            let attributes = try layer.getattr(inode, caller: caller, in: tree, now: RequestFiles.now(), rendering: text?.bytes)
            if let text { controlFile.generations.retain(text) }
            let entry = self.entry(for: attributes, in: tree, picker: text)
            answered = (bytes, entry.ino)
            return .entry(entry)
        }
        guard let answered else { return }
        invalidator.redo(since: epoch) {
            ViewTreeChanges(removedEntries: [ViewEntry(parent: parent, name: answered.name)], invalidatedInodes: [answered.inode])
        }
    }
}
