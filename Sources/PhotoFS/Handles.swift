import Glibc
import PhotoCore
import Synchronization

/// What a FUSE file handle (`fi->fh`) points at: a retained object made at open/opendir and
/// released at release/releasedir. Per-open state lives here because the caller's pid is
/// meaningless on release and nothing per inode may hold a descriptor.
final class Handle: Sendable {
    enum Kind: Sendable {
        case file(OpenFile)
        case directory(OpenDirectory)
        case control(OpenControl)
    }

    let kind: Kind

    init(_ kind: Kind) { self.kind = kind }

    /// Retains the handle and returns the number to give the kernel.
    func retainedNumber() -> UInt64 {
        UInt64(UInt(bitPattern: Unmanaged.passRetained(self).toOpaque()))
    }

    /// The handle behind a number the kernel gave back, still retained.
    static func borrow(_ number: UInt64) -> Handle? {
        guard let pointer = UnsafeRawPointer(bitPattern: UInt(number)) else { return nil }
        return Unmanaged<Handle>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Drops the reference taken by `retainedNumber` (release/releasedir).
    static func release(_ number: UInt64) {
        guard let pointer = UnsafeRawPointer(bitPattern: UInt(number)) else { return }
        Unmanaged<Handle>.fromOpaque(pointer).release()
    }
}

/// One open regular file: its own descriptor on the source, and what it was opened as, so
/// every read can check that the asset is still in that view (revocation).
final class OpenFile: Sendable {
    let fd: Int32
    let inode: UInt64
    let asset: AssetID
    /// Patches to overlay on every read; nil serves the original bytes.
    let patches: [Patch]?
    /// In an app view a revoked asset answers EACCES; in a library view ESTALE.
    let inAppView: Bool
    /// The source's size and mtime at open, to notice a file changed in place under a
    /// redacting descriptor (patch offsets would no longer fit).
    let size: Int64
    let mtimeSeconds: Int
    let mtimeNanoseconds: Int

    init(fd: Int32, inode: UInt64, asset: AssetID, patches: [Patch]?, inAppView: Bool, status: stat) {
        self.fd = fd
        self.inode = inode
        self.asset = asset
        self.patches = patches
        self.inAppView = inAppView
        self.size = Int64(status.st_size)
        self.mtimeSeconds = status.st_mtim.tv_sec
        self.mtimeNanoseconds = status.st_mtim.tv_nsec
    }

    deinit {
        close(fd)
    }
}

/// One open directory: the tree it lists, so that cookies (positions in that tree's
/// listing) stay valid while it is read, and who opened it.
///
/// A listing that starts (or restarts, `rewinddir`) at offset 0 takes the current tree:
/// the kernel caches what it reads (`cache_readdir`), so a directory opened before a
/// revocation and read after it would otherwise put the revoked names back into the
/// cache that every later `ls` reads. A listing already under way keeps its tree until it
/// ends (POSIX leaves entries added or removed after `opendir` unspecified); lookups and
/// opens always use the current tree, so a name listed from an old tree answers ENOENT.
final class OpenDirectory: Sendable {
    let inode: UInt64
    let caller: ViewCaller
    private let listed: Mutex<ViewTree>

    init(tree: ViewTree, inode: UInt64, caller: ViewCaller) {
        self.listed = Mutex(tree)
        self.inode = inode
        self.caller = caller
    }

    /// The tree to list from at `offset`: `current()` when the listing starts at 0.
    func tree(at offset: Int, current: () -> ViewTree) -> ViewTree {
        listed.withLock { tree in
            if offset == 0 { tree = current() }
            return tree
        }
    }
}

/// One open of `.picker`: the text its reads return. A failed write replaces it with the
/// reason line; a fresh open (or a successful write) reads the rendered state.
final class OpenControl: Sendable {
    struct State {
        var text: [UInt8]?
    }

    let caller: UInt32
    let state = Mutex(State())

    init(caller: UInt32) { self.caller = caller }
}
