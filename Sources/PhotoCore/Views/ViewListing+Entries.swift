/// What a plain READDIR needs of a listing, read in place: the FUSE adapter pages through
/// tens of thousands of names per second and copying each node (its name and children
/// arrays retained and released) or looking each one up again by inode (a random probe
/// into the inode table) cost more than the kernel's part of the listing.
extension ViewListing {
    /// Whether `other` reads the same directory of the same stored part as this listing:
    /// parts are immutable and a change makes a new one, so then every child this listing
    /// gives is, unchanged, the node `other` gives at the same position.
    public func readsSameNodes(as other: ViewListing) -> Bool {
        switch (source, other.source) {
        case (.part(let part, let directory), .part(let otherPart, let otherDirectory)):
            return part === otherPart && directory == otherDirectory
        default:
            return false
        }
    }

    /// Calls `body` with the inode, name and kind of the child at `position`, read in place
    /// (no copy of the node); nil past the end.
    public func withEntry<Result>(at position: Int, _ body: (_ inode: UInt64, _ name: [UInt8], _ kind: ViewNodeKind) -> Result)
        -> Result?
    {
        guard position >= 0 else { return nil }
        switch source {
        case .part(let part, let directory):
            guard position < part.nodes[Int(directory)].children.count else { return nil }
            let child = Int(part.nodes[Int(directory)].children[position])
            return body(part.nodes[child].inode, part.nodes[child].name, part.nodes[child].kind)
        case .apps(let apps):
            guard position < apps.count else { return nil }
            let top = apps[position].part.top
            return body(top.inode, top.name, top.kind)
        }
    }
}
