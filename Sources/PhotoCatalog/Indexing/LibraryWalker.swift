// Walks a library directory tree with openat, a directory stream and fstatat (SystemKit),
// names as raw bytes.
// Supports: names with any bytes but `/` and NUL, deep trees (one descriptor per level),
// loops through bind mounts (directories are recognised by device and inode).
// Does not follow symbolic links at all, neither to files nor to folders, inside or
// outside the library: a link is listed as a special file (so the catalog can say why
// it is not an asset), as are FIFOs, sockets and devices. Skips every name that starts
// with `.` (hidden files and folders: .DS_Store, .thumbnails, .git, editors' temporary
// files).
import Dispatch
import PhotoCore
import Synchronization
import SystemKit

/// The identity and state of a file as `lstat` sees it: what incremental indexing compares.
/// The ctime is part of it because it cannot be set back: a same-size rewrite whose mtime
/// was restored (`touch -d`) still differs.
struct FileStat: Hashable, Sendable {
    var size: Int64
    var mtimeNanoseconds: Int64
    var inode: UInt64
    var ctimeNanoseconds: Int64
}

/// One regular file found by the walk.
struct WalkedFile: Sendable {
    var path: LibraryPath
    var stat: FileStat
}

/// What a walk found.
struct WalkResult: Sendable {
    /// Regular files in path order.
    var files: [WalkedFile] = []
    /// Links, FIFOs, sockets and devices: recorded as not assets, never opened.
    var special: [(file: WalkedFile, kind: SpecialFile)] = []
    /// Folders that could not be opened or read, with errno: nothing below them is
    /// known, so nothing catalogued below them may be taken as deleted.
    var unreadableFolders: [(LibraryPath, Int32)] = []
    /// Every folder walked (for the watcher).
    var folders: [LibraryPath] = []
}

/// Why a library could not be walked at all.
public enum LibraryWalkError: Error, Hashable, Sendable {
    /// The library root cannot be opened as a directory (errno).
    case cannotOpenLibrary(path: String, errno: Int32)
}

extension LibraryWalkError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .cannotOpenLibrary(let path, let errno):
            "cannot open the library folder \(path): \(Errno(rawValue: errno))"
        }
    }
}

enum LibraryWalker {
    /// Walks `root` (an absolute path; the root itself may be a symlink) within `scope`.
    /// `found` is called every so often with the number of files found so far; `entering`
    /// with each folder just before its entries are read (so a watch added there misses
    /// nothing that the walk does not see).
    static func walk(
        root: [UInt8], scope: IndexScope, found: @escaping @Sendable (Int) -> Void = { _ in }, entering: ((LibraryPath) -> Void)? = nil
    ) throws(LibraryWalkError) -> WalkResult {
        let rootFD: FileDescriptor
        do throws(Errno) {
            rootFD = try FileDescriptor.open(root, .directory)
        } catch {
            throw .cannotOpenLibrary(path: LibraryPath(bytes: root).display, errno: error.rawValue)
        }
        defer { rootFD.close() }
        var walk = Walk(shared: WalkShared(found: found), entering: entering)
        switch scope {
        case .everything:
            do throws(Errno) {
                walk.directoryOnEveryCore(fd: try rootFD.duplicate(), path: LibraryPath(bytes: []))
            } catch {
                walk.result.unreadableFolders.append((LibraryPath(bytes: []), error.rawValue))
            }
        case .folders(let folders):
            // Recursive scopes first: a folder already walked is not walked again, so a
            // non-recursive scope walked first would hide the sub-folders of a recursive one.
            for folder in folders.sorted(by: { $0.recursive && !$1.recursive }) {
                let fd: FileDescriptor
                do throws(Errno) {
                    fd = try openBelow(rootFD, folder.path)
                } catch {
                    // A folder that vanished is simply empty now; anything else is unreadable.
                    if error != .noSuchFileOrDirectory && error != .notDirectory {
                        walk.result.unreadableFolders.append((folder.path, error.rawValue))
                    }
                    continue
                }
                walk.directory(fd: fd, path: folder.path, recursive: folder.recursive)
            }
        }
        // One tree comes out in path order; several scopes are each in order but may interleave.
        if case .folders(let folders) = scope, folders.count > 1 {
            walk.result.files.sort { $0.path < $1.path }
            walk.result.special.sort { $0.file.path < $1.file.path }
        }
        return walk.result
    }

    /// Opens a folder below the root one component at a time, refusing symlinks and
    /// hidden names on the way (ENOENT).
    static func openBelow(_ rootFD: FileDescriptor, _ path: LibraryPath) throws(Errno) -> FileDescriptor {
        var fd = try rootFD.duplicate()
        for component in path.components {
            if component.first == UInt8(ascii: ".") {
                fd.close()
                throw .noSuchFileOrDirectory
            }
            let next: FileDescriptor
            do throws(Errno) {
                next = try fd.openAt(component, [.directory, .noFollow])
            } catch {
                fd.close()
                throw error
            }
            fd.close()
            fd = next
        }
        return fd
    }

    /// Whether `a` sorts before `b` byte by byte, a prefix first: the order of `LibraryPath`
    /// and of SQLite's BLOB comparison, by memcmp.
    static func bytewiseLess(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let common = min(x.count, y.count)
                let order = common == 0 ? 0 : Memory.compare(x.baseAddress!, y.baseAddress!, count: common)
                return order != 0 ? order < 0 : x.count < y.count
            }
        }
    }
}

/// What the threads of one walk share: the folders seen (a folder reached twice through a
/// bind mount is walked once) and the number of files found.
private final class WalkShared: Sendable {
    struct DirectoryIdentity: Hashable {
        var device: UInt64
        var inode: UInt64
    }

    private let visited = Mutex<Set<DirectoryIdentity>>([])
    private let files = Atomic<Int>(0)
    let found: @Sendable (Int) -> Void

    init(found: @escaping @Sendable (Int) -> Void) { self.found = found }

    /// Whether the folder is seen for the first time.
    func firstVisit(device: UInt64, inode: UInt64) -> Bool {
        visited.withLock { $0.insert(DirectoryIdentity(device: device, inode: inode)).inserted }
    }

    /// Counts a file found and reports every 1,024th.
    func countFile() {
        let total = files.add(1, ordering: .relaxed).newValue
        if total % 1024 == 0 { found(total) }
    }
}

/// The state of one walk (or of one part of it, on one thread).
private struct Walk {
    var result = WalkResult()
    /// Where the paths of the files found go: a million paths in a few hundred buffers.
    var paths = PathArena()
    let shared: WalkShared
    let entering: ((LibraryPath) -> Void)?

    init(shared: WalkShared, entering: ((LibraryPath) -> Void)?) {
        self.shared = shared
        self.entering = entering
    }

    /// The kind of a file that is neither regular nor a folder.
    static func special(_ kind: FileStatus.Kind) -> SpecialFile? {
        switch kind {
        case .symbolicLink: .symbolicLink
        case .fifo: .fifo
        case .socket: .socket
        case .characterDevice: .characterDevice
        case .blockDevice: .blockDevice
        case .regular, .directory, .other: nil
        }
    }

    /// One name read from a directory: a file with its stat, or a folder to descend into.
    private struct Entry {
        /// The name, with a `/` appended for a folder: sorting these keys bytewise puts the
        /// folder's whole subtree where its paths fall among its siblings' paths.
        var key: [UInt8]
        var stat: FileStat
        var kind: FileStatus.Kind

        init(key: [UInt8], stat: FileStat, kind: FileStatus.Kind) {
            self.key = key
            self.stat = stat
            self.kind = kind
        }

        init(folder name: [UInt8]) {
            self.init(
                key: name + [UInt8(ascii: "/")], stat: FileStat(size: 0, mtimeNanoseconds: 0, inode: 0, ctimeNanoseconds: 0),
                kind: .directory)
        }
    }

    /// An open folder with its entries sorted.
    private struct OpenFolder {
        let stream: DirectoryStream
        let entries: [Entry]
    }

    /// Reads one open directory (takes ownership of `fd`) and, when `recursive`, its
    /// sub-folders, adding files in bytewise path order (a folder's entries sorted by
    /// name, a sub-folder as its name plus `/`): no sort of all paths afterwards.
    mutating func directory(fd: FileDescriptor, path: LibraryPath, recursive: Bool) {
        guard let folder = read(fd: fd, path: path, recursive: recursive) else { return }
        defer { folder.stream.close() }
        for entry in folder.entries {
            if entry.kind == .directory {
                subfolder(entry.key.dropLast(), in: folder.stream.descriptor, of: path)
            } else {
                add(entry, in: path)
            }
        }
    }

    /// `directory` with the root's sub-folders walked on every core, each into results of
    /// its own that are joined in path order. Only without `entering`, whose callers expect
    /// one thread.
    mutating func directoryOnEveryCore(fd: FileDescriptor, path: LibraryPath) {
        guard entering == nil else { return directory(fd: fd, path: path, recursive: true) }
        guard let folder = read(fd: fd, path: path, recursive: true) else { return }
        defer { folder.stream.close() }
        let subfolders = folder.entries.filter { $0.kind == .directory }.map { Array($0.key.dropLast()) }
        let parts = Mutex<[WalkResult]>(Array(repeating: WalkResult(), count: subfolders.count))
        let (shared, parentFD) = (self.shared, folder.stream.descriptor)
        DispatchQueue.concurrentPerform(iterations: subfolders.count) { index in
            var part = Walk(shared: shared, entering: nil)
            part.subfolder(subfolders[index][...], in: parentFD, of: path)
            parts.withLock { $0[index] = part.result }
        }
        let results = parts.withLock { $0 }
        var next = 0
        for entry in folder.entries {
            guard entry.kind == .directory else {
                add(entry, in: path)
                continue
            }
            let part = results[next]
            next += 1
            result.files += part.files
            result.special += part.special
            result.unreadableFolders += part.unreadableFolders
            result.folders += part.folders
        }
    }

    /// Opens a folder's descriptor as a directory stream and reads its entries, sorted;
    /// nil when it cannot be read (recorded) or was seen already.
    private mutating func read(fd: FileDescriptor, path: LibraryPath, recursive: Bool) -> OpenFolder? {
        let info: FileStatus
        do throws(Errno) {
            info = try fd.status()
        } catch {
            result.unreadableFolders.append((path, error.rawValue))
            fd.close()
            return nil
        }
        guard shared.firstVisit(device: info.device, inode: info.inode) else {
            fd.close()
            return nil
        }
        let stream: DirectoryStream
        do throws(Errno) {
            stream = try DirectoryStream.open(fd)
        } catch {
            result.unreadableFolders.append((path, error.rawValue))
            fd.close()
            return nil
        }
        result.folders.append(path)
        entering?(path)
        var entries: [Entry] = []
        while true {
            let entry: DirectoryStream.Entry
            do throws(Errno) {
                guard let next = try stream.next() else { break }
                entry = next
            } catch {
                result.unreadableFolders.append((path, error.rawValue))
                break
            }
            // Hidden names, `.` and `..` all start with a dot.
            guard entry.firstByte != UInt8(ascii: ".") else { continue }
            if entry.isKnownDirectory {
                if recursive { entries.append(Entry(folder: Array(entry.name))) }
                continue
            }
            // The name is read in place by fstatat: no copy per file.
            guard let status = try? stream.status(of: entry) else { continue }  // vanished between readdir and stat
            if status.kind == .directory {
                if recursive { entries.append(Entry(folder: Array(entry.name))) }
                continue
            }
            let stat = FileStat(
                size: status.size, mtimeNanoseconds: status.mtimeNanoseconds, inode: status.inode, ctimeNanoseconds: status.ctimeNanoseconds
            )
            entries.append(Entry(key: Array(entry.name), stat: stat, kind: status.kind))
        }
        entries.sort { LibraryWalker.bytewiseLess($0.key, $1.key) }
        return OpenFolder(stream: stream, entries: entries)
    }

    /// Adds a file or special file found in the folder `path`.
    private mutating func add(_ entry: Entry, in path: LibraryPath) {
        let file = WalkedFile(path: entry.key.withUnsafeBufferPointer { paths.path(path, appending: $0) }, stat: entry.stat)
        if entry.kind == .regular {
            result.files.append(file)
            shared.countFile()
        } else if let special = Self.special(entry.kind) {
            result.special.append((file, special))
        }
    }

    /// Opens the sub-folder `name` of the folder `path` (open as `parentFD`) without
    /// following a symlink, and walks it.
    mutating func subfolder(_ name: ArraySlice<UInt8>, in parentFD: FileDescriptor, of path: LibraryPath) {
        let name = Array(name)
        let child: FileDescriptor
        do throws(Errno) {
            child = try parentFD.openAt(name, [.directory, .noFollow])
        } catch {
            // ELOOP: it became a symlink since readdir; ENOENT: it went away.
            if error != .tooManySymbolicLinkLevels && error != .noSuchFileOrDirectory && error != .notDirectory {
                result.unreadableFolders.append((path.appending(name), error.rawValue))
            }
            return
        }
        directory(fd: child, path: path.appending(name), recursive: true)
    }
}
