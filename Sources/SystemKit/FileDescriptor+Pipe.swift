import Glibc

extension FileDescriptor {
    /// A new pipe, both ends close-on-exec: bytes written to `write` are read from `read`.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        _ = try Syscall.checked { Glibc.pipe(&ends) }
        // pipe2 is not visible without _GNU_SOURCE: the flag is set right after instead.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }
}
