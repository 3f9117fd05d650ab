import Glibc

/// An inotify instance (`inotify_init1`, non-blocking, close-on-exec): the kernel queues
/// a record for each change in a watched folder, read from `descriptor`. A value, not an
/// owner: whoever opened it closes it (`close()`).
public struct Inotify: Sendable, Hashable {
    /// Where the records are read (`read(into:)`; EAGAIN when none is queued).
    public let descriptor: FileDescriptor

    /// The size of a record's fixed part (`struct inotify_event`: watch, mask, cookie,
    /// name length), which the name's bytes, padded with NULs, follow.
    public static let recordHeaderSize = MemoryLayout<inotify_event>.size

    /// Opens a new instance.
    public static func open() throws(Errno) -> Inotify {
        let fd = try Syscall.checked { inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC)) }
        return Inotify(descriptor: FileDescriptor(rawValue: fd))
    }

    /// What a watch reports, and what a record says happened (the `mask`).
    public struct Events: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// A name was created in the folder.
        public static let create = Events(rawValue: UInt32(IN_CREATE))
        /// A name was removed from the folder.
        public static let delete = Events(rawValue: UInt32(IN_DELETE))
        /// A file open for writing was closed.
        public static let closeWrite = Events(rawValue: UInt32(IN_CLOSE_WRITE))
        /// Metadata changed (permissions, times, links, owner).
        public static let attributes = Events(rawValue: UInt32(IN_ATTRIB))
        /// A name was moved out of the folder.
        public static let movedFrom = Events(rawValue: UInt32(IN_MOVED_FROM))
        /// A name was moved into the folder.
        public static let movedTo = Events(rawValue: UInt32(IN_MOVED_TO))
        /// The watched folder itself was deleted.
        public static let deleteSelf = Events(rawValue: UInt32(IN_DELETE_SELF))
        /// The record's name is a folder (in a record).
        public static let isDirectory = Events(rawValue: UInt32(IN_ISDIR))
        /// The kernel's queue overflowed: records were lost (in a record, watch -1).
        public static let queueOverflow = Events(rawValue: UInt32(IN_Q_OVERFLOW))
        /// The watch was removed, explicitly or because its folder is gone (in a record).
        public static let ignored = Events(rawValue: UInt32(IN_IGNORED))
    }

    /// Watches the folder at `path` (bytes without NUL) for `events`; the watch number the
    /// records carry. Only a folder is watched, never through a final symbolic link (a folder
    /// swapped for a link is not followed), and names are not reported after their unlink.
    public func watchFolder(_ path: [UInt8], for events: Events) throws(Errno) -> Int32 {
        guard !path.contains(0) else { throw .invalidArgument }
        let mask = events.rawValue | UInt32(IN_ONLYDIR) | UInt32(IN_DONT_FOLLOW) | UInt32(IN_EXCL_UNLINK)
        return try Syscall.checked {
            (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { inotify_add_watch(descriptor.rawValue, $0.baseAddress!, mask) }
            }
        }
    }

    /// Removes the watch `watch` (the kernel then queues its `ignored` record).
    public func removeWatch(_ watch: Int32) { _ = inotify_rm_watch(descriptor.rawValue, watch) }

    /// Closes the instance and all its watches.
    public func close() { descriptor.close() }
}
