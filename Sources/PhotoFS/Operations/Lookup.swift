import CFuse
import Glibc
import PhotoCore

/// LOOKUP. Inode numbers are derived from the view tree, not allocated, so there is no
/// lookup count to keep, except for `.picker`'s renderings (`PickerGenerations`, which
/// FORGET counts down).
extension PhotoFileSystem {
    func lookup(_ request: fuse_req_t, _ parent: UInt64, _ name: UnsafePointer<CChar>?) {
        respond(request, "lookup") { () throws(FileSystemError) -> Reply in
            guard let name else { throw .invalidArgument }
            let tree = self.tree
            let caller = try caller(of: request, in: tree)
            let directory = try visibleNode(parent, in: tree, to: caller)
            guard directory.isDirectory else { throw .notDirectory }
            let bytes = UnsafeRawBufferPointer(start: name, count: strlen(name))
            if let special = specialFile(named: Array(bytes), in: directory) {
                guard isVisible(special, to: caller) else { throw .notFound }
                return .entry(specialEntry(special, in: tree))
            }
            guard let child = tree.lookup(parent: parent, name: Array(bytes)), tree.isVisible(child, to: caller) else {
                throw .notFound
            }
            try checkRepresentation(of: child, in: tree)
            guard child.kind == .picker else { return .entry(entry(for: child, in: tree)) }
            let text = currentPickerText()
            controlFile.generations.retain(text)
            return .entry(entry(for: child, in: tree, picker: text))
        }
    }
}
