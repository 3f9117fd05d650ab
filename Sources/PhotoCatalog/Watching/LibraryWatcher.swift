// Watches a library with inotify and keeps the catalog in step with it. Supports: files
// written (seen when the writer closes them), touched, deleted, renamed and moved between
// folders; folders created, moved in, moved out, renamed and deleted (watches follow them);
// queue overflow (a full rescan). Does not support: changes below a symlink (symlinks are
// never followed), a file still being written (seen at close, not before), a hard link made
// inside the library (no close event; the next full index finds it), or file systems whose
// changes inotify does not see (network mounts changed by other hosts).
import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// Why the watcher could not start.
public enum WatchError: Error, Hashable, Sendable {
    /// inotify_init1 failed (errno), e.g. too many inotify instances.
    case cannotWatch(errno: Int32)
    /// The library could not be walked.
    case library(LibraryWalkError)
}

extension WatchError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotWatch(let errno): "cannot watch the library with inotify: \(Errno(rawValue: errno))"
        case .library(let error): error.description
        }
    }
}

/// Runs an incremental index of the folders where something happened, about
/// `coalescing` seconds after the first event of a burst, and hands the summary (with the
/// ids to invalidate) to `onCatalogChange`, which reads what it needs from the catalog.
///
/// One inotify watch per folder: a library with more folders than
/// `/proc/sys/fs/inotify/max_user_watches` is watched only partly (the folders that did not
/// get a watch are listed by `unwatchedFolders`).
public final class LibraryWatcher: Sendable {
    /// Called on the watcher's queue after each index run that changed the catalog; the
    /// caller reads from the catalog only what changed (a full snapshot per change would cost
    /// a 100,000-asset daemon time and memory); a thrown error retries like a failed read.
    public typealias CatalogChangeHandler = @Sendable (IndexSummary) throws(CatalogError) -> Void
    /// Called on the watcher's queue when an index run failed (the next event retries).
    public typealias ErrorHandler = @Sendable (IndexError) -> Void

    private let indexer: Indexer
    private let coalescing: Double
    private let onCatalogChange: CatalogChangeHandler
    private let onError: ErrorHandler
    private let queue = DispatchQueue(label: "photofs.library-watcher")
    private let state = Mutex(State())

    struct State {
        var inotify: Inotify?
        /// A pipe whose write end `stop()` writes to, to wake the loop.
        var stopPipe: (read: FileDescriptor, write: FileDescriptor)?
        var folders: [Int32: LibraryPath] = [:]
        var unwatched: Set<LibraryPath> = []
        var pending: Set<FolderScope> = []
        var fullRescan = false
        var running = false
        /// A run changed the catalog but its snapshot could not be read: delivered with the
        /// next run's, so no invalidation is lost.
        var owedSummary: IndexSummary?
    }

    /// No IN_MODIFY: a file is read when its writer closes it (IN_CLOSE_WRITE), so a copy
    /// in progress is not hashed half-way, over and over.
    private static let folderEvents: Inotify.Events = [.create, .delete, .closeWrite, .attributes, .movedFrom, .movedTo, .deleteSelf]

    /// A watcher that hands each run's summary to `onCatalogChange`.
    public init(
        indexer: Indexer, coalescing: Double = 0.2, onCatalogChange: @escaping CatalogChangeHandler,
        onError: @escaping ErrorHandler = { _ in }
    ) {
        self.indexer = indexer
        self.coalescing = coalescing
        self.onCatalogChange = onCatalogChange
        self.onError = onError
    }

    deinit { stop() }

    /// Watches every folder of the library and starts reacting to changes on a thread of
    /// its own. Changes made before `start` returns are seen by the next index run only if
    /// they happen again; index first, then start. (A mount uses `open`, `watch` during its
    /// scan and `run` instead, which leaves no such gap.)
    public func start() throws(WatchError) {
        try open()
        let folders: [LibraryPath]
        do {
            folders = try LibraryWalker.walk(root: indexer.library, scope: .everything).folders
        } catch {
            stop()
            throw .library(error)
        }
        for folder in folders { watch(folder) }
        run()
    }

    /// Creates the inotify instance. From now on, changes in a folder are queued by the
    /// kernel as soon as that folder has a watch (`watch`), and handled once `run` is called.
    public func open() throws(WatchError) {
        let inotify: Inotify
        let stopPipe: (read: FileDescriptor, write: FileDescriptor)
        do throws(Errno) {
            inotify = try Inotify.open()
        } catch {
            throw .cannotWatch(errno: error.rawValue)
        }
        do throws(Errno) {
            stopPipe = try FileDescriptor.pipe()
        } catch {
            inotify.close()
            throw .cannotWatch(errno: error.rawValue)
        }
        state.withLock { s in
            s.inotify = inotify
            s.stopPipe = stopPipe
            s.running = true
        }
    }

    /// Adds the watch of one folder (relative to the library root) after `open`; a folder
    /// that cannot be watched is listed in `unwatchedFolders`.
    public func watch(_ folder: LibraryPath) {
        state.withLock { s in
            guard s.running else { return }
            Self.addWatch(folder, library: indexer.library, state: &s)
        }
    }

    /// Starts handling the queued and future events on the watcher's own thread.
    public func run() {
        let (running, inotify, stopPipe) = state.withLock { s in (s.running, s.inotify, s.stopPipe) }
        guard running, let inotify, let stopPipe else { return }
        queue.async { [self] in loop(inotify: inotify, stop: stopPipe.read) }
    }

    /// Stops watching and waits for an index run in progress to finish. Safe to call twice.
    public func stop() {
        let (running, inotify, stopPipe) = state.withLock { s in (s.running, s.inotify, s.stopPipe) }
        guard running, let inotify, let stopPipe else { return }
        _ = try? stopPipe.write.writeAll([1])
        queue.sync {}  // the loop has returned (or never ran)
        state.withLock { s in
            s.running = false
            s.inotify = nil
            s.stopPipe = nil
            s.folders.removeAll()
        }
        inotify.close()
        stopPipe.read.close()
        stopPipe.write.close()
    }

    /// Folders that could not get a watch (limit reached, or unreadable).
    public var unwatchedFolders: Set<LibraryPath> { state.withLock { $0.unwatched } }

    /// The number of folders watched.
    public var watchedFolderCount: Int { state.withLock { $0.folders.count } }

    // MARK: events

    /// Waits for events; `coalescing` seconds after the first one of a burst, indexes.
    private func loop(inotify: Inotify, stop: FileDescriptor) {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var deadline: Double?
        while true {
            let timeout = deadline.map { Int32(max(0, ($0 - Indexer.monotonicSeconds()) * 1000).rounded(.up)) } ?? -1
            let entries = [Poll.Entry(inotify.descriptor, events: Poll.readable), Poll.Entry(stop, events: Poll.readable)]
            guard let ready = try? Poll.wait(entries, milliseconds: timeout) else { return }
            if ready[1] != 0 { return }
            if ready[0] != 0 {
                while true {
                    // Nothing more queued: EAGAIN (the descriptor does not block).
                    guard
                        let count = try? buffer.withUnsafeMutableBytes({ bytes throws(Errno) in try inotify.descriptor.read(into: bytes) }),
                        count > 0
                    else { break }
                    state.withLock { s in Self.parse(buffer[0..<count], library: indexer.library, state: &s) }
                }
                let pending = state.withLock { $0.fullRescan || !$0.pending.isEmpty }
                if pending && deadline == nil { deadline = Indexer.monotonicSeconds() + coalescing }
            }
            if let due = deadline, Indexer.monotonicSeconds() >= due {
                deadline = nil
                if !flush() {
                    // The changes are still unindexed (catalog busy, library unreadable): retry.
                    deadline = Indexer.monotonicSeconds() + Self.retryDelay
                }
            }
        }
    }

    /// Turns raw inotify records into pending scopes and watch changes.
    static func parse(_ bytes: ArraySlice<UInt8>, library: [UInt8], state s: inout State) {
        var offset = bytes.startIndex
        let header = Inotify.recordHeaderSize
        while offset + header <= bytes.endIndex {
            func u32(_ at: Int) -> UInt32 {
                UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
            }
            let wd = Int32(bitPattern: u32(offset))
            let mask = Inotify.Events(rawValue: u32(offset + 4))
            let length = Int(u32(offset + 12))
            let nameStart = offset + header
            let nameEnd = min(bytes.endIndex, nameStart + length)
            let rawName = bytes[nameStart..<nameEnd]
            let name = Array(rawName.prefix { $0 != 0 })
            offset = nameEnd

            if mask.contains(.queueOverflow) {
                s.fullRescan = true
                continue
            }
            guard let folder = s.folders[wd] else { continue }
            if mask.contains(.ignored) {
                s.folders[wd] = nil
                continue
            }
            if mask.contains(.deleteSelf) {
                s.pending.insert(FolderScope(path: folder, recursive: true))
                continue
            }
            guard let first = name.first, first != UInt8(ascii: ".") else { continue }
            let path = folder.appending(name)
            if mask.contains(.isDirectory) {
                s.pending.insert(FolderScope(path: path, recursive: true))
                if !mask.isDisjoint(with: [.movedFrom, .delete]) {
                    // Its watches would follow it out of the library or name stale paths.
                    removeWatches(under: path, state: &s)
                }
                if !mask.isDisjoint(with: [.create, .movedTo]) {
                    let sub =
                        (try? LibraryWalker.walk(root: library, scope: .folders([FolderScope(path: path, recursive: true)])).folders) ?? []
                    for folder in sub { addWatch(folder, library: library, state: &s) }
                }
            } else if !mask.subtracting(.create).isEmpty {
                // A file's IN_CREATE alone is the start of a write: wait for its IN_CLOSE_WRITE.
                s.pending.insert(FolderScope(path: folder, recursive: false))
            }
        }
    }

    private static func addWatch(_ folder: LibraryPath, library: [UInt8], state s: inout State) {
        let absolute = folder.bytes.isEmpty ? library : library + [UInt8(ascii: "/")] + folder.bytes
        if let wd = try? s.inotify?.watchFolder(absolute, for: folderEvents) {
            s.folders[wd] = folder
            s.unwatched.remove(folder)
        } else {
            s.unwatched.insert(folder)
        }
    }

    private static func removeWatches(under folder: LibraryPath, state s: inout State) {
        let scope = FolderScope(path: folder, recursive: true)
        for (wd, path) in s.folders where path == folder || scope.contains(path) {
            s.inotify?.removeWatch(wd)
            s.folders[wd] = nil
        }
    }

    // MARK: indexing

    /// Seconds before a failed index run is tried again.
    static let retryDelay = 1.0

    /// Indexes what is pending; false when the run failed, with the scope put back.
    private func flush() -> Bool {
        let (scope, rescan) = state.withLock { s -> (IndexScope, Bool) in
            defer {
                s.pending.removeAll()
                s.fullRescan = false
            }
            return (s.fullRescan ? .everything : .folders(Array(s.pending)), s.fullRescan)
        }
        if rescan {
            // Events were lost: watch every folder again (existing watches are kept).
            if let folders = try? LibraryWalker.walk(root: indexer.library, scope: .everything).folders {
                state.withLock { s in for folder in folders { Self.addWatch(folder, library: indexer.library, state: &s) } }
            }
        }
        let summary: IndexSummary
        do {
            summary = try indexer.run(scope: scope)
        } catch {
            state.withLock { s in
                switch scope {
                case .everything: s.fullRescan = true
                case .folders(let folders): s.pending.formUnion(folders)
                }
            }
            onError(error)
            return false
        }
        let owed = state.withLock { s in
            defer { s.owedSummary = nil }
            return s.owedSummary
        }
        let combined = owed.map { $0.merged(with: summary) } ?? summary
        // A run that found nothing new may have lost the race to another process indexing
        // the same files: their rows are in the catalog but in no summary, so the views
        // are still told (and re-read everything).
        guard combined.changedCatalog || (try? indexer.catalog.changedElsewhere) == true else { return true }
        do {
            try onCatalogChange(combined)
        } catch {
            // The catalog holds the changes: retry until a snapshot reaches the views.
            state.withLock { $0.owedSummary = combined }
            onError(.catalog(error))
            return false
        }
        return true
    }
}
