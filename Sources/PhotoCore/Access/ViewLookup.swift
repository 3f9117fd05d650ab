/// What a name resolves to: a node of the view tree, or a file the tree does not hold.
public enum ViewLookup: Hashable, Sendable {
    case node(inode: UInt64)
    case special(ViewSpecialFile)

    /// The inode number the name resolves to.
    public var inode: UInt64 {
        switch self {
        case .node(let inode): inode
        case .special(let special): special.inode
        }
    }
}

/// The files the tree does not hold: found by name, never listed, so a listing of a view
/// still shows only its photos.
public enum ViewSpecialFile: Hashable, Sendable {
    /// `apps/APP/.request`, where the app asks for photos and reads the answer.
    case request(app: String)
    /// `.requests` at the root (owner only): the pending requests, and where they are answered.
    case requestList

    public var name: [UInt8] {
        switch self {
        case .request: RequestInode.fileName
        case .requestList: RequestInode.listName
        }
    }

    /// Its inode number.
    public var inode: UInt64 {
        switch self {
        case .request(let app): RequestInode.file(app: app)
        case .requestList: RequestInode.list
        }
    }
}
