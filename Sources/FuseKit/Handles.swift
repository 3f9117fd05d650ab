import PhotoCore
import Synchronization
import SystemKit

/// What a FUSE file handle (`fi->fh`) points at: a retained object made at open or
/// opendir and released at release or releasedir. Photos have no handles (their OPEN is
/// answered with handle 0, see `Read.swift`), nor do the directories of a mount no other
/// user may enter (OPENDIR answers ENOSYS there, see `Directory.swift`).
final class Handle: Sendable {
    enum Kind: Sendable {
        case directory(OpenDirectory)
        /// A descriptor of `.picker`: the rendering it was opened on, read whole.
        case picker(PickerGenerations.Text)
        /// A descriptor of a request file (`.request` of an app, or `.requests`).
        case request(ViewSpecialFile)
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

/// One open directory: the listing it reads, so that cookies (positions in that listing)
/// stay valid while it is read, and who opened it. The listing holds only the part of the
/// views that lists the directory (an app's part, the library part), never a whole tree.
///
/// A listing that starts (or restarts, `rewinddir`) at offset 0 takes the current views:
/// the kernel caches what it reads (`cache_readdir`), so a directory opened before a
/// revocation and read after it would otherwise put the revoked names back into the
/// cache that every later `ls` reads. A listing already under way keeps its listing until
/// it ends (POSIX leaves entries added or removed after `opendir` unspecified); lookups
/// and reads always use the current views, so a name listed from an old listing answers
/// ENOENT.
final class OpenDirectory: Sendable {
    let inode: UInt64
    let caller: ViewCaller
    private let listed: Mutex<ViewListing?>

    init(listing: ViewListing?, inode: UInt64, caller: ViewCaller) {
        self.listed = Mutex(listing)
        self.inode = inode
        self.caller = caller
    }

    /// The listing to read from at `offset`: the current one when the listing starts at 0.
    func listing(at offset: Int, current: ViewTree) -> ViewListing? {
        listed.withLock { listing in
            if offset == 0 { listing = current.listing(of: inode) }
            return listing
        }
    }
}
