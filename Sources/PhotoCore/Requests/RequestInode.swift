/// Inode numbers of the request files: `.requests` at the root (owner only, the pending
/// requests) and `apps/APP/.request` in every app view. Hashed like the view's own nodes,
/// with their own tag, so a number stays the same across snapshots and restarts.
public enum RequestInode {
    /// `.requests`: a fixed number next to the view tree's own (1-8), outside the range
    /// the `.picker` renderings take (768-1023).
    public static let list: UInt64 = 9

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
