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

    /// Waits up to `milliseconds` (-1: without end) until `first` or `second` is readable
    /// (one `poll`); which of them is (readable, closed or failed: a read will not block).
    /// An interrupted wait answers neither.
    public static func waitReadable(
        _ first: FileDescriptor, _ second: FileDescriptor, milliseconds: Int32
    ) throws(Errno) -> (first: Bool, second: Bool) {
        var pollers = (
            pollfd(fd: first.rawValue, events: Int16(POLLIN), revents: 0), pollfd(fd: second.rawValue, events: Int16(POLLIN), revents: 0)
        )
        let ready = withUnsafeMutableBytes(of: &pollers) { raw in
            poll(raw.baseAddress!.assumingMemoryBound(to: pollfd.self), 2, milliseconds)
        }
        if ready < 0 {
            let code = Errno.current
            if code == .interrupted { return (false, false) }
            throw code
        }
        return (pollers.0.revents != 0, pollers.1.revents != 0)
    }
}
