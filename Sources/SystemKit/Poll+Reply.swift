import Glibc

extension Poll {
    /// Readable, normal data (POLLIN | POLLRDNORM), as the events mask of a FUSE POLL
    /// reply carries it.
    public static let readableReply = UInt32(POLLIN | POLLRDNORM)
}
