/// Inode numbers of the request files: `.requests` at the root (owner only, the pending
/// requests) and `apps/APP/.request` in every app view. Hashed like the view's own nodes,
/// with their own tag, so a number stays the same across snapshots and restarts.
public enum RequestInode {
    /// `.requests`, below the derived range like the other fixed nodes.
    public static let list: UInt64 = 1000

    /// The request file of `app`.
    public static func file(app: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(UInt8(ascii: "q"))
        hash.add(Array(app.utf8))
        return hash.inode
    }

    /// The name of an app's request file and of the owner's list.
    public static let fileName = Array(".request".utf8)
    public static let listName = Array(".requests".utf8)
}
