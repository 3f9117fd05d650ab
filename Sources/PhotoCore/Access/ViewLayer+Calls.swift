/// The layer's operations by uid over the current views, one call each: what an
/// in-process client (tests, tools) uses instead of system calls on a mount.
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

    /// The attributes of a node for `uid` (GETATTR); `now` (monotonic seconds) is the time
    /// `.requests` is rendered at, which its size depends on.
    public func getattr(_ inode: UInt64, uid: UInt32, now: Double = 0) throws(ViewLayerError) -> ViewAttributes {
        let tree = self.tree
        let caller = try caller(uid: uid, in: tree)
        if tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) {
            try checkSpecial(special, caller: caller, in: tree)
            // The size of what a read returns now (the adapter reports a pending request
            // larger, so that the kernel sends the READ that waits for the answer).
            switch special {
            case .requestList:
                let size = Int64(requestListText(now: now).count)
                return ViewAttributes(inode: special.inode, kind: .control, permissions: 0o600, uid: ownerUID, size: size, changed: nil)
            case .request(let app):
                var size: Int64 = 0
                if case .answered(let answer) = requests.status(of: app) { size = Int64(answer.bytes.count) }
                let uid = tree.snapshot.apps[app]?.uid ?? ownerUID
                return ViewAttributes(inode: special.inode, kind: .control, permissions: 0o600, uid: uid, size: size, changed: nil)
            }
        }
        return attributes(of: try attributedNode(inode, caller: caller, in: tree), in: tree)
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

    /// Up to `size` bytes of file `inode` at `offset` as `uid` reads them (`.picker` too).
    public func read(_ inode: UInt64, uid: UInt32, offset: Int, size: Int) throws(ViewLayerError) -> [UInt8] {
        let tree = self.tree
        let caller = try caller(uid: uid, in: tree)
        guard offset >= 0, size >= 0 else { throw .invalidArgument }
        if inode == ViewInode.picker {
            _ = try visibleNode(inode, in: tree, to: caller)
            try checkPickerRead(caller: caller)
            let text = pickerText()
            let start = min(offset, text.count)
            return Array(text[start..<min(text.count, start + size)])
        }
        var bytes = [UInt8](repeating: 0, count: size)
        let result = bytes.withUnsafeMutableBytes { buffer in
            Result { () throws(ViewLayerError) -> Int in try read(inode, caller: caller, at: offset, into: buffer, in: tree) }
        }
        bytes.removeSubrange(try result.get()...)
        return bytes
    }

    /// Writes one `write(2)` of picker commands to `.picker` as `uid`.
    public func writePicker(_ bytes: [UInt8], uid: UInt32) throws(ViewLayerError) -> ViewTreeChanges {
        let tree = self.tree
        return try writePicker(bytes, uid: uid, caller: try caller(uid: uid, in: tree), in: tree)
    }
}
