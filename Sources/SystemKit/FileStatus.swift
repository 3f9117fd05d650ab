import Glibc

/// What `fstat` says about an open file, in Swift types.
public struct FileStatus: Sendable, Equatable {
    /// The kind of file (`st_mode & S_IFMT`).
    public enum Kind: Sendable, Equatable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, other
    }

    public var kind: Kind
    /// Permission bits and set-id bits (`st_mode & 07777`).
    public var permissions: UInt32
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var owner: UInt32
    /// Modification and status change times, nanoseconds since 1970.
    public var mtimeNanoseconds: Int64
    public var ctimeNanoseconds: Int64
    /// Whole seconds of the modification time (`st_mtim.tv_sec`).
    public var mtimeSeconds: Int64
    /// Whole seconds of the status change time (`st_ctim.tv_sec`).
    public var ctimeSeconds: Int64 { ctimeNanoseconds / 1_000_000_000 }

    /// The status of `raw`, as `stat`, `fstat` or `fstatat` filled it.
    public init(_ raw: stat) {
        switch raw.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .other
        }
        permissions = UInt32(raw.st_mode & 0o7777)
        device = UInt64(raw.st_dev)
        inode = UInt64(raw.st_ino)
        size = Int64(raw.st_size)
        owner = UInt32(raw.st_uid)
        mtimeSeconds = Int64(raw.st_mtim.tv_sec)
        mtimeNanoseconds = Int64(raw.st_mtim.tv_sec) &* 1_000_000_000 &+ Int64(raw.st_mtim.tv_nsec)
        ctimeNanoseconds = Int64(raw.st_ctim.tv_sec) &* 1_000_000_000 &+ Int64(raw.st_ctim.tv_nsec)
    }

    /// The version of the file these facts describe.
    public var stamp: FileStamp {
        FileStamp(size: size, inode: inode, mtimeNanoseconds: mtimeNanoseconds, ctimeNanoseconds: ctimeNanoseconds)
    }

    /// The status of the file at `path` (following a final symbolic link, as stat(2)).
    public static func of(path: String) throws(Errno) -> FileStatus {
        try of(path: Array(path.utf8))
    }

    /// The status of the file at `path` (bytes: file names need not be UTF-8).
    public static func of(path: [UInt8]) throws(Errno) -> FileStatus {
        try of(path: path) { stat($0, $1) }
    }

    /// The status `call` (`stat` or `lstat`) fills in for `path`.
    static func of(
        path: [UInt8], _ call: (UnsafePointer<CChar>, UnsafeMutablePointer<stat>) -> Int32
    ) throws(Errno) -> FileStatus {
        guard !path.contains(0) else { throw .invalidArgument }
        var raw = stat()
        _ = try Syscall.checked {
            (path + [0]).withUnsafeBufferPointer { name in name.withMemoryRebound(to: CChar.self) { call($0.baseAddress!, &raw) } }
        }
        return FileStatus(raw)
    }
}

/// The stamp of one version of a file as a catalog records it: size, inode, modification and change
/// times. A file whose version differs is another file for anything planned from the
/// first (a redaction plan, a thumbnail, listed sizes): a same-size rewrite with its mtime
/// set back keeps size and mtime but not the change time; a file put in another's place
/// keeps neither the inode.
public struct FileStamp: Sendable, Hashable {
    public var size: Int64
    public var inode: UInt64
    public var mtimeNanoseconds: Int64
    public var ctimeNanoseconds: Int64

    public init(size: Int64, inode: UInt64, mtimeNanoseconds: Int64, ctimeNanoseconds: Int64) {
        self.size = size
        self.inode = inode
        self.mtimeNanoseconds = mtimeNanoseconds
        self.ctimeNanoseconds = ctimeNanoseconds
    }

    /// Whether `status` (a regular file) is this version. A recorded mtime of whole
    /// seconds (a catalog that kept no nanoseconds) matches any nanoseconds in that second.
    public func matches(_ status: FileStatus) -> Bool {
        guard status.kind == .regular, status.size == size, status.inode == inode, status.ctimeNanoseconds == ctimeNanoseconds
        else { return false }
        if mtimeNanoseconds % 1_000_000_000 == 0 { return status.mtimeSeconds &* 1_000_000_000 == mtimeNanoseconds }
        return status.mtimeNanoseconds == mtimeNanoseconds
    }
}
