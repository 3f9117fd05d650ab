import PhotoCore

extension ViewTree {
    /// Every directory's listing, walked from the root: by path ("" for the root, then
    /// "/library", ...), one line per child, `name inode` and what `detail` says of it.
    /// Two trees that should serve the same thing have equal listings.
    public func listings(_ detail: (ViewNode) -> String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var pending: [(UInt64, String)] = [(ViewInode.root, "")]
        while let (directory, path) = pending.popLast() {
            result[path] = children(of: directory).map { child in
                let name = String(decoding: child.name, as: UTF8.self)
                if child.isDirectory { pending.append((child.inode, path + "/" + name)) }
                return "\(name) \(child.inode) \(detail(child))"
            }
        }
        return result
    }
}
