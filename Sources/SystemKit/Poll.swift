import Glibc

/// Waiting on several descriptors at once (`poll`).
public enum Poll {
    /// Readable data (or a closed peer) is there: `POLLIN`.
    public static let readable = Int16(POLLIN)

    /// One descriptor and the events wanted (poll(2) bits: `readable`, or what a library
    /// such as sd-bus asks for).
    public struct Entry: Sendable {
        public let descriptor: FileDescriptor
        public let events: Int16
        public init(_ descriptor: FileDescriptor, events: Int16) {
            self.descriptor = descriptor
            self.events = events
        }
    }

    /// Waits up to `milliseconds` (-1: without limit) for any of `entries`; the events seen
    /// on each, in order (all 0 on a timeout or when a signal interrupted the wait, which
    /// the caller's loop takes as a reason to look again).
    public static func wait(_ entries: [Entry], milliseconds: Int32) throws(Errno) -> [Int16] {
        var fds = entries.map { pollfd(fd: $0.descriptor.rawValue, events: $0.events, revents: 0) }
        let ready = poll(&fds, nfds_t(fds.count), milliseconds)
        if ready < 0 {
            let code = Errno.current
            if code != .interrupted { throw code }
        }
        return fds.map(\.revents)
    }
}
