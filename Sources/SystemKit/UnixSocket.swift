import Glibc

/// Local stream sockets bound to a path: the daemon channel's listener, its connections,
/// and the CLI's end. Every descriptor is close-on-exec.
extension FileDescriptor {
    /// Whether `path` fits in a socket address (`sun_path`, with its NUL).
    public static func fitsUnixSocketAddress(_ path: String) -> Bool {
        path.utf8.count < MemoryLayout.size(ofValue: sockaddr_un().sun_path) && !path.utf8.contains(0)
    }

    /// A stream socket connected to the one listening at `path`.
    public static func connectUnixSocket(_ path: String) throws(Errno) -> FileDescriptor {
        guard var address = unixAddress(path) else { throw .fileNameTooLong }
        let socket = try newUnixSocket()
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = Errno.current
            socket.close()
            throw code
        }
        return socket
    }

    /// A stream socket listening at `path` (which must not exist), made with `mode` from
    /// the start (no moment where others may connect), with `backlog` waiting connections.
    public static func listenUnixSocket(_ path: String, mode: UInt32, backlog: Int32) throws(Errno) -> FileDescriptor {
        guard var address = unixAddress(path) else { throw .fileNameTooLong }
        let socket = try newUnixSocket()
        let previous = umask(mode_t(~mode & 0o777))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket.rawValue, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, chmod(path, mode_t(mode)) == 0, listen(socket.rawValue, backlog) == 0 else {
            let code = Errno.current
            socket.close()
            throw code
        }
        return socket
    }

    /// The next connection on a listening socket (repeated on EINTR), close-on-exec.
    public func accept() throws(Errno) -> FileDescriptor {
        let connection = try Syscall.retrying { Glibc.accept(rawValue, nil, nil) }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        return FileDescriptor(rawValue: connection)
    }

    /// The user id of the process at the other end of a connected local socket, as the
    /// kernel recorded it (`SO_PEERCRED`); nil when it cannot say.
    public func peerUserID() -> UInt32? {
        // `struct ucred` (pid, uid, gid; three 32-bit fields) is not in Swift's Glibc module.
        var credentials: [UInt32] = [0, 0, 0]
        var length = socklen_t(12)
        let result = credentials.withUnsafeMutableBytes { getsockopt(rawValue, SOL_SOCKET, SO_PEERCRED, $0.baseAddress, &length) }
        guard result == 0, length == 12 else { return nil }
        return credentials[1]
    }

    /// Makes a receive that waits longer than `seconds` fail (EAGAIN) instead of blocking.
    public func setReceiveTimeout(seconds: Int) {
        var timeout = timeval(tv_sec: seconds, tv_usec: 0)
        setsockopt(rawValue, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Shuts the sending half of a socket (the peer reads the end; replies still come).
    public func shutdownSending() { _ = Glibc.shutdown(rawValue, Int32(SHUT_WR)) }

    private static func newUnixSocket() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.checked { socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0) })
    }

    private static func unixAddress(_ path: String) -> sockaddr_un? {
        guard fitsUnixSocketAddress(path) else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
            raw[bytes.count] = 0
        }
        return address
    }
}
