import Synchronization

/// When each directory's listing last changed, shared by every tree that replaces another:
/// a directory reports it as its mtime and ctime, so file managers that poll a directory's
/// times (FUSE cannot raise inotify events for changes the daemon makes) see a select, a
/// revocation or a new photo. A directory whose listing never changed reports the mount's
/// start time.
public final class DirectoryTimes: Sendable {
    private let times = Mutex<[UInt64: Int64]>([:])

    public init() {}

    /// The time, in nanoseconds since 1970, the listing of `inode` last changed, if it did.
    public func time(of inode: UInt64) -> Int64? { times.withLock { $0[inode] } }

    /// Records that the listings of `inodes` changed at `nanoseconds`.
    func mark(_ inodes: [UInt64], at nanoseconds: Int64) {
        guard !inodes.isEmpty else { return }
        times.withLock { times in
            for inode in inodes { times[inode] = max(nanoseconds, (times[inode] ?? 0) + 1) }
        }
    }
}

extension ViewTree {
    /// Records, after this tree replaced another with `changes`, that the listings of the
    /// directories among the invalidated inodes changed at `nanoseconds`.
    public func recordListingChanges(_ changes: ViewTreeChanges, at nanoseconds: Int64) {
        let directories = changes.invalidatedInodes.filter { node(inode: $0)?.isDirectory == true }
        directoryTimes.mark(directories, at: nanoseconds)
    }
}
