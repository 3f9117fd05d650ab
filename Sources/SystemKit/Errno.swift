import Glibc

/// An error number the C library or the kernel answered with (`errno`), with its
/// `strerror` text as its description. The one type for a failed system call.
public struct Errno: Error, Hashable, Sendable, RawRepresentable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno` now (read right after the failed call).
    public static var current: Errno { Errno(rawValue: errno) }

    public var description: String { String(cString: strerror(rawValue)) }

    /// ENOENT: no such file or directory.
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    /// EINTR: a signal interrupted the call.
    public static let interrupted = Errno(rawValue: EINTR)
    /// EIO: input/output error.
    public static let ioError = Errno(rawValue: EIO)
    /// EBADF: not an open descriptor.
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// EAGAIN: try again (also EWOULDBLOCK).
    public static let resourceTemporarilyUnavailable = Errno(rawValue: EAGAIN)
    /// ENOMEM: out of memory.
    public static let noMemory = Errno(rawValue: ENOMEM)
    /// EACCES: permission denied.
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// EPERM: operation not permitted.
    public static let notPermitted = Errno(rawValue: EPERM)
    /// EEXIST: the file exists.
    public static let fileExists = Errno(rawValue: EEXIST)
    /// EXDEV: a path crosses a mount (openat2 RESOLVE_BENEATH also answers this).
    public static let improperLink = Errno(rawValue: EXDEV)
    /// ENOTDIR: a component is not a directory.
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// EISDIR: a directory where a file was wanted.
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// EROFS: a read-only file system.
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// EINVAL: an invalid argument (a path with a NUL byte, for one).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// ENOSPC: no space left on the device.
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// ELOOP: a symbolic link where none may be followed.
    public static let tooManySymbolicLinkLevels = Errno(rawValue: ELOOP)
    /// ENAMETOOLONG: a name or path is too long.
    public static let fileNameTooLong = Errno(rawValue: ENAMETOOLONG)
    /// ENOSYS: the kernel has no such call (or a sandbox hides it).
    public static let noFunction = Errno(rawValue: ENOSYS)
    /// ESTALE: the file is no longer the one that was meant.
    public static let stale = Errno(rawValue: ESTALE)
    /// ETIMEDOUT: the time allowed has passed.
    public static let timedOut = Errno(rawValue: ETIMEDOUT)
    /// EPIPE: the reading end is gone.
    public static let brokenPipe = Errno(rawValue: EPIPE)
    /// EDQUOT: a quota would be exceeded.
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// EBUSY: the resource is in use.
    public static let busy = Errno(rawValue: EBUSY)
    /// EFBIG: the file (or write) is too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
    /// ENOTCONN: not connected (a FUSE session that has ended).
    public static let notConnected = Errno(rawValue: ENOTCONN)
}
