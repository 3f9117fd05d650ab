/// Where the file system reads the views it answers from: the one owner of the live state
/// (the daemon's catalog-backed `LibraryState`), which replaces them after a picker write
/// or a library change and publishes what the kernel must forget (`ChangeSink`).
public protocol ViewSource: Sendable {
    /// The tree requests are answered from right now.
    var views: ViewTree { get }
}
