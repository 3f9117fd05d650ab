import Glibc

extension FileDescriptor {
    /// Makes this descriptor also descriptor `number` (`dup2`), e.g. `/dev/null` as stdout.
    public func duplicate(as number: Int32) { _ = dup2(rawValue, number) }

    /// Makes reads and writes on the descriptor fail with EAGAIN instead of blocking.
    public func setNonBlocking() { _ = fcntl(rawValue, F_SETFL, fcntl(rawValue, F_GETFL) | O_NONBLOCK) }

    /// Takes an exclusive `flock` on the open file without waiting; false when another
    /// open file description holds one.
    public func tryLockExclusively() -> Bool { flock(rawValue, LOCK_EX | LOCK_NB) == 0 }
}
