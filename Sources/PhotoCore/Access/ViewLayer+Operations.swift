/// The one dispatcher: every file operation of the mount, one function each, for every
/// inode (photos, directories, `.picker` and the request files alike). Each takes the
/// caller and the tree the adapter took once for the request, decides which file the inode
/// is and what the operation does with it, and answers in plain Swift. The FUSE adapter
/// translates a request into one of these calls and the answer into one reply, adding only
/// what the kernel needs (`.picker`'s rendering inodes, timeouts, handles, deferred
/// replies); the behaviour suite's in-process client calls the same functions.
extension ViewLayer {
    /// What an inode is, as far as operations on it differ.
    public enum ViewFile: Sendable {
        /// A directory or a photo of the tree.
        case node(ViewNode)
        /// `.picker`, the control file.
        case picker(ViewNode)
        /// A request file, which the tree does not hold.
        case special(ViewSpecialFile)
    }

    /// The file `inode` is for `caller`: `hidden` when the caller may not see a node of
    /// the tree (ENOENT for a name being walked, EACCES for an inode held open), ENOENT for
    /// a request file it may not see or a number that is nothing.
    public func file(_ inode: UInt64, caller: ViewCaller, in tree: ViewTree, hidden: ViewLayerError = .notFound)
        throws(ViewLayerError) -> ViewFile
    {
        if let node = tree.node(inode: inode) {
            guard tree.isVisible(node, to: caller) else { throw hidden }
            return node.kind == .picker ? .picker(node) : .node(node)
        }
        guard let special = specialFile(inode: inode, in: tree) else { throw hidden }
        try checkSpecial(special, caller: caller, in: tree)
        return .special(special)
    }

    // MARK: attributes

    /// GETATTR: the attributes of `inode` for `caller`. `now` (monotonic seconds) is when
    /// `.requests` is rendered (its size depends on it); `rendering` is the `.picker` text
    /// the caller reads (the current one when nil). A node the caller may no longer see is
    /// one held open and answers EACCES (see `attributedNode`).
    public func getattr(
        _ inode: UInt64, caller: ViewCaller, in tree: ViewTree, now: @autoclosure () -> Double, rendering: [UInt8]? = nil
    )
        throws(ViewLayerError) -> ViewAttributes
    {
        switch try file(inode, caller: caller, in: tree, hidden: .permissionDenied) {
        case .special(let special):
            return specialAttributes(special, in: tree, now: now())
        case .picker(let node):
            return attributes(of: node, in: tree, pickerSize: rendering.map { Int64($0.count) })
        case .node(let node):
            try checkRepresentation(of: node, in: tree)
            return attributes(of: node, in: tree)
        }
    }

    /// The attributes of a request file: its size is that of what a read returns now.
    func specialAttributes(_ special: ViewSpecialFile, in tree: ViewTree, now: Double) -> ViewAttributes {
        switch special {
        case .requestList:
            let size = Int64(requestListText(now: now).count)
            return ViewAttributes(inode: special.inode, kind: .control, permissions: 0o600, uid: ownerUID, size: size, changed: nil)
        case .request(let app):
            var size: Int64 = 0
            let status = requests.status(of: app)
            if case .answered(let answer) = status { size = Int64(answer.bytes.count) }
            var pending = false
            if case .pending = status { pending = true }
            let uid = tree.snapshot.apps[app]?.uid ?? ownerUID
            return ViewAttributes(
                inode: special.inode, kind: .control, permissions: 0o600, uid: uid, size: size, changed: nil, readWaits: pending)
        }
    }

    /// ACCESS: whether `caller` may use `inode` as asked. Writing is refused everywhere but
    /// `.picker` (EROFS; EACCES for anybody but the owner there) and the request files, so
    /// `test -w` tells the truth about a read-only view.
    public func access(_ inode: UInt64, write: Bool, caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) {
        switch try file(inode, caller: caller, in: tree) {
        case .special: return
        case .picker: if write, caller != .owner { throw .permissionDenied }
        case .node: if write { throw .readOnly }
        }
    }

    /// What a SETATTR asks to change.
    public struct AttributeChange: Sendable {
        /// The new size, when the size is to change.
        public var size: Int64?
        /// Whether anything but the size and the times is to change (mode, owner, ...).
        public var beyondSizeAndTimes: Bool

        public init(size: Int64?, beyondSizeAndTimes: Bool) {
            self.size = size
            self.beyondSizeAndTimes = beyondSizeAndTimes
        }
    }

    /// SETATTR: only the truncation to 0 of `echo > FILE` on `.picker` (owner only) and on a
    /// request file is accepted; everything else is read-only (EROFS). A truncated request
    /// file reports size 0 and no waiting read, so that the kernel does not read the page
    /// back before the write (which would wait for an answer).
    public func setattr(_ inode: UInt64, _ change: AttributeChange, caller: ViewCaller, in tree: ViewTree, now: @autoclosure () -> Double)
        throws(ViewLayerError) -> ViewAttributes
    {
        let truncatesToZero = change.size == nil || change.size == 0
        switch try file(inode, caller: caller, in: tree) {
        case .special(let special):
            guard truncatesToZero else { throw .readOnly }
            var attributes = specialAttributes(special, in: tree, now: now())
            attributes.size = 0
            attributes.readWaits = false
            return attributes
        case .picker(let node):
            guard !change.beyondSizeAndTimes, truncatesToZero else { throw .readOnly }
            guard caller == .owner else { throw .permissionDenied }
            return attributes(of: node, in: tree)
        case .node:
            throw .readOnly
        }
    }

    // MARK: open, read, write, poll

    /// How a file is opened.
    public enum Opened: Sendable {
        /// A photo or a directory: nothing to keep per descriptor (every READ checks again).
        case plain
        /// `.picker`: a descriptor reads the rendering it was opened on, with direct I/O.
        case picker
        /// A request file: direct I/O, and a descriptor the request's withdrawal counts.
        case special(ViewSpecialFile)
    }

    /// OPEN of `inode`. A photo's open is not checked (each READ is); `.picker` opens for
    /// the owner only (EACCES), a request file for those who may see it (ENOENT).
    public func open(_ inode: UInt64, caller: ViewCaller, in tree: ViewTree) throws(ViewLayerError) -> Opened {
        if inode == ViewInode.picker {
            try checkPickerRead(caller: caller)
            return .picker
        }
        guard tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) else { return .plain }
        try checkSpecial(special, caller: caller, in: tree)
        return .special(special)
    }

    /// What a READ is answered with.
    public enum ReadAnswer: Sendable {
        /// `count` bytes of a photo were put in the buffer.
        case filled(Int)
        /// A text whose part at the offset is the answer (`.requests`, a settled request).
        case text([UInt8])
        /// `.picker`: the part at the offset of the rendering the descriptor was opened on
        /// (a fresh open's, `pickerText()`, when there is none).
        case picker
        /// A pending request: a waiter was registered, whose answer the request broker posts
        /// under `token` (`RequestBroker.answers`); `token` also stops the wait (an
        /// interrupted reader).
        case waiting(app: String, token: RequestBroker.WaiterToken)
    }

    /// READ of `size` bytes of `inode` at `offset` into `buffer` (photos) as `caller`; `now`
    /// (monotonic seconds, asked only for `.requests`: a photo's read reads no clock) is when
    /// `.requests` is rendered. A read of a pending request by a reader that `mayWait`
    /// registers a waiter (`.waiting`); a reader that may not wait gets EAGAIN.
    public func read(
        _ inode: UInt64, caller: ViewCaller, at offset: Int, size: Int, into buffer: UnsafeMutableRawBufferPointer, in tree: ViewTree,
        now: @autoclosure () -> Double, mayWait: Bool = false
    ) throws(ViewLayerError) -> ReadAnswer {
        guard offset >= 0, size >= 0 else { throw .invalidArgument }
        if inode == ViewInode.picker {
            try checkPickerRead(caller: caller)
            return .picker
        }
        guard tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) else {
            let wanted = UnsafeMutableRawBufferPointer(rebasing: buffer[0..<min(size, buffer.count)])
            return .filled(try read(inode, caller: caller, at: offset, into: wanted, in: tree))
        }
        try checkSpecial(special, caller: caller, in: tree)
        switch special {
        case .requestList:
            return .text(requestListText(now: now()))
        case .request(let app):
            let (status, token) = requests.read(app, register: mayWait)
            switch status {
            case .idle: return .text([])
            case .answered(let answer): return .text(answer.bytes)
            case .pending:
                guard let token else { throw .wouldBlock }
                return .waiting(app: app, token: token)
            }
        }
    }

    /// What a WRITE did.
    public enum Written: Sendable {
        /// A `.picker` write was checked: the caller hands it to its handler.
        case picker(PickerWrite)
        /// An app's pick request was recorded.
        case request(RequestBroker.Pending)
        /// The owner settled these requests through `.requests`.
        case answered([(RequestBroker.Pending, PickAnswer)])
    }

    /// WRITE of one `write(2)`'s `bytes` to `inode` by `uid`. Photos and directories are
    /// read-only (EROFS); `.picker` is checked (`writePicker`, `mayBeSplit`: EFBIG) and left
    /// to the caller to run;
    /// an app's `.request` records a request, `.requests` settles requests (owner only).
    public func write(
        _ inode: UInt64, _ bytes: [UInt8], uid: UInt32, caller: ViewCaller, in tree: ViewTree, now: Double, mayBeSplit: Bool = false
    ) throws(ViewLayerError) -> Written {
        if inode == ViewInode.picker {
            return .picker(try writePicker(bytes, uid: uid, caller: caller, in: tree, mayBeSplit: mayBeSplit))
        }
        guard tree.node(inode: inode) == nil, let special = specialFile(inode: inode, in: tree) else { throw .readOnly }
        try checkSpecial(special, caller: caller, in: tree)
        switch special {
        case .request(let app):
            return .request(try submitRequest(app, bytes, now: now, in: tree))
        case .requestList:
            guard caller == .owner else { throw .permissionDenied }
            return .answered(try answerRequests(bytes, in: tree))
        }
    }

    /// POLL of `inode`: whether a read would return now. Only a pending request is not
    /// readable; then, with `register`, a waiter is registered whose answer the broker posts
    /// under `token` (nil when none was registered).
    public func poll(_ inode: UInt64, in tree: ViewTree, register: Bool) -> (readable: Bool, token: RequestBroker.WaiterToken?) {
        guard tree.node(inode: inode) == nil, case .request(let app) = specialFile(inode: inode, in: tree) else { return (true, nil) }
        let (status, token) = requests.read(app, register: register)
        if case .pending = status { return (false, token) }
        return (true, token)
    }

    /// Every operation that would change the tree (create, mknod, mkdir, unlink, rmdir,
    /// rename, link, symlink, setxattr, removexattr) is refused with EROFS: photofs never
    /// writes to the library, and views are computed, not stored.
    public func changeTree() throws(ViewLayerError) {
        throw .readOnly
    }
}
