import Glibc

extension FileDescriptor {
    /// A pipe (read end, write end), both close-on-exec.
    public static func pipe() throws(Errno) -> (read: FileDescriptor, write: FileDescriptor) {
        var ends: [Int32] = [-1, -1]
        // pipe2 is hidden behind _GNU_SOURCE; close-on-exec is set right after, which races
        // only with a spawn on another thread of the caller's.
        _ = try Syscall.checked { Glibc.pipe(&ends) }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        return (FileDescriptor(rawValue: ends[0]), FileDescriptor(rawValue: ends[1]))
    }

    /// Makes this descriptor also descriptor `number` (`dup2`), e.g. `/dev/null` as stdout.
    public func duplicate(as number: Int32) { _ = dup2(rawValue, number) }

    /// Makes reads and writes on the descriptor fail with EAGAIN instead of blocking.
    public func setNonBlocking() { _ = fcntl(rawValue, F_SETFL, fcntl(rawValue, F_GETFL) | O_NONBLOCK) }

    /// Takes an exclusive `flock` on the open file without waiting; false when another
    /// open file description holds one.
    public func tryLockExclusively() -> Bool { flock(rawValue, LOCK_EX | LOCK_NB) == 0 }
}
