/// What the behaviour suite does to a photofs view, written once and run against two
/// implementations: the in-process view layer (no kernel, no root) and a real kernel mount
/// of the shipped binary (POSIX calls on the mount). Paths are relative to the mount root
/// ("" is the root); failures are the errno a program would see.
public protocol ViewClient: AnyObject {
    /// The size `stat` reports.
    func stat(_ path: String) -> Result<Int64, ClientErrno>
    /// What `stat` reports besides the size.
    func status(_ path: String) -> Result<ClientStatus, ClientErrno>
    /// The names in a directory, in the order the view lists them.
    func list(_ path: String) -> Result<[String], ClientErrno>
    /// The whole file, as a fresh open + read + close.
    func read(_ path: String) -> Result<[UInt8], ClientErrno>
    /// Up to `size` bytes at `offset`, as a fresh open + one pread + close.
    func read(_ path: String, at offset: Int, size: Int) -> Result<[UInt8], ClientErrno>
    /// A non-blocking read of a whole file (EAGAIN where a read would wait).
    func readNow(_ path: String) -> Result<[UInt8], ClientErrno>
    /// A blocking read of a whole file that waits (a pending request) until `answer`, run
    /// once the read waits, settles it.
    func readAnswered(_ path: String, after answer: () -> Void) -> Result<[UInt8], ClientErrno>
    /// Opens a file for reading and keeps it open (a descriptor, or what the kernel would hold).
    func open(_ path: String) -> Result<Int, ClientErrno>
    /// Reads the whole file through an open handle (from offset 0).
    func read(handle: Int) -> Result<[UInt8], ClientErrno>
    func close(handle: Int)
    /// One `write(2)` of picker commands to `.picker`: 0 or the errno.
    func writePicker(_ text: String) -> Int32
    /// Opens `path` for writing (with O_TRUNC when `truncate`), makes one `write(2)` of
    /// `bytes` and closes it: 0 or the first errno.
    func write(_ path: String, _ bytes: [UInt8], truncate: Bool) -> Int32
    /// `access(2)`: 0 or the errno.
    func access(_ path: String, write: Bool) -> Int32
    /// A change to the tree (create, mkdir, unlink, rename, truncate, chmod): 0 or the errno.
    func change(_ change: ClientChange) -> Int32
}

extension ViewClient {
    /// The whole file, as a fresh open + read + close: the same calls on both targets.
    public func read(_ path: String) -> Result<[UInt8], ClientErrno> {
        open(path).flatMap { handle in
            defer { close(handle: handle) }
            return read(handle: handle)
        }
    }
}

/// A change a read-only view refuses.
public enum ClientChange: Sendable {
    case create(String)
    case mkdir(String)
    case unlink(String)
    case rmdir(String)
    case rename(String, to: String)
    case truncate(String, size: Int64)
    case chmod(String, mode: UInt32)
    case symlink(String, target: String)
}

/// What `stat` shows of a file besides its size.
public struct ClientStatus: Hashable, Sendable {
    public let size: Int64
    public let isDirectory: Bool
    /// The permission bits.
    public let permissions: UInt32
    public let uid: UInt32

    /// The status of a file whose mode word (type and permission bits, as stat(2) reports
    /// it) is `mode`.
    public init(size: Int64, mode: UInt32, uid: UInt32) {
        self.size = size
        isDirectory = mode & 0o170_000 == 0o040_000
        permissions = mode & 0o7777
        self.uid = uid
    }
}

/// The errno of a failed call.
public struct ClientErrno: Error, Hashable, CustomStringConvertible {
    public let code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { "errno \(code)" }
}

extension Result {
    /// The errno of a failure (0 on success).
    public var errnoCode: Int32 {
        switch self {
        case .success: 0
        case .failure(let error): (error as? ClientErrno)?.code ?? -1
        }
    }
}
