import CFuse
import PhotoCore
import Synchronization
import SystemKit

/// The texts `.picker` shows, one inode per state: every lookup of `.picker` answers with
/// the inode of the current rendering, whose content never changes afterwards.
///
/// The mount has no OPEN requests (see `Read.swift`), so there is no per-descriptor state;
/// and one inode has one size and one page cache for everybody, so a text that changed
/// while someone read it would reach that reader half old, half new (the size from one
/// GETATTR, pages from READs of another state, or pages another reader's readahead
/// fetched). Instead, each rendering gets an inode number of its own: a descriptor keeps
/// the inode it was opened on, so a reader reads one state from start to end, whatever
/// happens meanwhile. The kernel looks `.picker` up on every path walk (its entries are
/// never cached), so a fresh open sees the newest state. A text is kept while the kernel
/// holds its inode (LOOKUP counts up, FORGET counts down), the current one always.
///
/// Inode numbers come from a range the view tree reserves for fixed nodes and does not use
/// (`firstInode` up to `ViewInode.firstDerived`); a number is reused after `slots`
/// renderings with a new FUSE generation, so the kernel never takes a new text for an old
/// one (a descriptor that outlived that many states reads ESTALE).
final class PickerGenerations: Sendable {
    static let firstInode: UInt64 = 768
    static let slots: UInt64 = ViewInode.firstDerived - firstInode

    /// One rendering.
    struct Text: Sendable {
        let inode: UInt64
        /// FUSE's generation for the inode number: the count of renderings so far.
        let generation: UInt64
        let bytes: [UInt8]
        /// When it was rendered (its mtime, before any write through it).
        let made: timespec
    }

    private struct Entry {
        let text: Text
        var lookups: UInt64
        /// Successful writes through this inode: each changes its reported mtime, so the
        /// kernel drops the written bytes it kept in the pages at the next `read(2)`.
        var writes: UInt64 = 0
    }

    private struct State {
        var current: Text?
        /// The next lookup must make a new inode even if the text is the same: someone
        /// wrote through the current one (the kernel keeps written bytes in its pages).
        var written = false
        var entries: [UInt64: Entry] = [:]
    }

    private let state = Mutex(State())

    /// Whether `inode` is `.picker` (its tree node or one of its renderings).
    static func isPicker(_ inode: UInt64) -> Bool {
        inode == ViewInode.picker || (firstInode..<ViewInode.firstDerived).contains(inode)
    }

    /// The current rendering, made anew when the state's text changed.
    func current(render: () -> [UInt8]) -> Text {
        let fresh = render()
        return state.withLock { state in
            var text: Text
            if let current = state.current, current.bytes == fresh, !state.written {
                text = current
            } else {
                let generation = (state.current?.generation ?? 0) &+ 1
                let now = PhotoFileSystem.fileTime(nanoseconds: SystemClock.wallNanoseconds())
                text = Text(inode: Self.firstInode + generation % Self.slots, generation: generation, bytes: fresh, made: now)
                if let old = state.current, state.entries[old.inode]?.lookups == 0 { state.entries.removeValue(forKey: old.inode) }
                state.entries[text.inode] = Entry(text: text, lookups: 0)
                state.current = text
                state.written = false
            }
            return text
        }
    }

    /// Counts a reference the kernel now holds to `text`'s inode (a LOOKUP or READDIRPLUS
    /// entry it was sent), keeping the text even once it is no longer current.
    func retain(_ text: Text) {
        state.withLock { state in
            if state.entries[text.inode]?.text.generation == text.generation {
                state.entries[text.inode]?.lookups &+= 1
            } else {
                state.entries[text.inode] = Entry(text: text, lookups: 1)
            }
        }
    }

    /// The rendering an inode the kernel holds stands for; nil when it is gone (ESTALE).
    func text(of inode: UInt64) -> Text? {
        state.withLock { $0.entries[inode]?.text }
    }

    /// The kernel dropped `count` references to `inode`.
    func forget(_ inode: UInt64, count: UInt64) {
        state.withLock { state in
            guard var entry = state.entries[inode] else { return }
            entry.lookups = entry.lookups > count ? entry.lookups - count : 0
            if entry.lookups == 0 && state.current?.inode != inode {
                state.entries.removeValue(forKey: inode)
            } else {
                state.entries[inode] = entry
            }
        }
    }

    /// Someone wrote through `inode` successfully: its pages in the kernel may now hold
    /// the written bytes, so no new opener may get it, and its next GETATTR reports a new
    /// mtime.
    func written(_ inode: UInt64) {
        state.withLock { state in
            if state.current?.inode == inode { state.written = true }
            state.entries[inode]?.writes &+= 1
        }
    }

    /// How many successful writes went through `text`'s inode.
    func writes(through text: Text) -> UInt64 {
        state.withLock { state in
            guard let entry = state.entries[text.inode], entry.text.generation == text.generation else { return 0 }
            return entry.writes
        }
    }
}
