/// Shorthands by uid over the current views, one call each, for tests and tools: each
/// takes the tree and the caller once and calls the operation the FUSE adapter calls
/// (`ViewLayer+Operations`).
extension ViewLayer {
    /// One entry of a directory page.
    public struct ListedEntry: Hashable, Sendable {
        public let name: [UInt8]
        public let inode: UInt64
        public let isDirectory: Bool
        /// The offset the next page starts at.
        public let next: Int
    }

    /// Resolves `name` in `parent` for `uid`.
    public func lookup(parent: UInt64, name: [UInt8], uid: UInt32) throws(ViewLayerError) -> ViewLookup {
        let tree = self.tree
        return try lookup(parent: parent, name: name, caller: try caller(uid: uid, in: tree), in: tree)
    }

    /// The attributes of a node for `uid` (GETATTR, `getattr(_:caller:in:now:rendering:)`).
    public func getattr(_ inode: UInt64, uid: UInt32, now: Double = 0) throws(ViewLayerError) -> ViewAttributes {
        let tree = self.tree
        return try getattr(inode, caller: try caller(uid: uid, in: tree), in: tree, now: now)
    }

    /// Up to `count` entries of directory `inode` from `offset`, as `uid` sees them.
    public func readdir(_ inode: UInt64, uid: UInt32, offset: Int = 0, count: Int = .max) throws(ViewLayerError) -> [ListedEntry] {
        let tree = self.tree
        let caller = try caller(uid: uid, in: tree)
        let (_, listing) = try openDirectory(inode, caller: caller, in: tree)
        var entries: [ListedEntry] = []
        page(listing, from: offset, caller: caller, current: tree) { node, next in
            guard entries.count < count else { return false }
            entries.append(ListedEntry(name: node.name, inode: node.inode, isDirectory: node.isDirectory, next: next))
            return true
        }
        return entries
    }

    /// Up to `size` bytes of file `inode` at `offset` as `uid` reads them (READ,
    /// `read(_:caller:at:size:into:in:now:mayWait:)`, through a fresh open: `.picker`'s
    /// current rendering), without waiting for a pending request (EAGAIN).
    public func read(_ inode: UInt64, uid: UInt32, offset: Int, size: Int, now: Double = 0) throws(ViewLayerError) -> [UInt8] {
        let tree = self.tree
        let caller = try caller(uid: uid, in: tree)
        guard size >= 0 else { throw .invalidArgument }
        var bytes = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ViewLayerError) -> ReadAnswer in
                try read(inode, caller: caller, at: offset, size: size, into: buffer, in: tree, now: now)
            }
        }
        let text: [UInt8]
        switch try result.get() {
        case .filled(let count):
            bytes.removeSubrange(count...)
            return bytes
        case .text(let answer): text = answer
        case .picker: text = pickerText()
        case .waiting: throw .wouldBlock
        }
        let start = min(offset, text.count)
        return Array(text[start..<min(text.count, start + size)])
    }

    /// Writes one `write(2)` of picker commands to `.picker` as `uid`: checked here, then
    /// run as the adapter runs it.
    public func writePicker(_ bytes: [UInt8], uid: UInt32) throws(ViewLayerError) -> ViewTreeChanges {
        let tree = self.tree
        let write = try writePicker(bytes, uid: uid, caller: try caller(uid: uid, in: tree), in: tree)
        switch write.handler.execute(write.bytes, caller: write.uid) {
        case .success(let changes): return changes
        case .failure(let error, _): throw error
        }
    }
}
