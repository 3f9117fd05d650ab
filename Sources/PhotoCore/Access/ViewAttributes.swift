/// The attributes of one name as the view layer answers them: what `stat` shows, without
/// the kernel's types. The adapter adds the group and, for `.picker`, the size and times
/// of the rendering the caller reads.
public struct ViewAttributes: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case directory
        case file
        /// `.picker` or a request file.
        case control
    }

    public var inode: UInt64
    public var kind: Kind
    /// Permission bits: they restate the access model (see `ViewLayer.attributes`).
    public var permissions: UInt32
    public var uid: UInt32
    public var size: Int64
    /// Modification and change time in nanoseconds since 1970; nil for the mount's start.
    public var changed: Int64?
    /// Whether a read waits for an answer (a pending request): the adapter then reports a
    /// size large enough that the kernel sends the READ.
    public var readWaits = false
}
