import Glibc

extension Errno {
    /// ENOTCONN: not connected (a FUSE mount whose daemon died answers this).
    public static let notConnected = Errno(rawValue: ENOTCONN)
    /// ECONNRESET: the peer reset the connection.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// ECONNABORTED: a connection was aborted before it was accepted.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// EMFILE: this process has no descriptor left.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// ENFILE: the system has no descriptor left.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
    /// EBUSY: the resource is busy.
    public static let busy = Errno(rawValue: EBUSY)
    /// EFBIG: a file or message too large.
    public static let fileTooLarge = Errno(rawValue: EFBIG)
}
