import Glibc

extension Errno {
    /// ECONNRESET: the peer reset the connection.
    public static let connectionReset = Errno(rawValue: ECONNRESET)
    /// ECONNABORTED: a connection was aborted before it was accepted.
    public static let connectionAborted = Errno(rawValue: ECONNABORTED)
    /// EMFILE: this process has no descriptor left.
    public static let tooManyOpenFiles = Errno(rawValue: EMFILE)
    /// ENFILE: the system has no descriptor left.
    public static let tooManyOpenFilesInSystem = Errno(rawValue: ENFILE)
}
