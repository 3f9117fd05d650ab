import Glibc

extension FileDescriptor {
    /// A second descriptor of the same open file, close-on-exec (`fcntl` F_DUPFD_CLOEXEC):
    /// closing one leaves the other open.
    public func duplicate() throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try Syscall.retrying { fcntl(rawValue, F_DUPFD_CLOEXEC, 0) })
    }
}
