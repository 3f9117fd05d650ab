import Glibc

/// An open file descriptor with typed calls. A value, not an owner: whoever opened it
/// closes it (`close()`, or `closeAfter`).
public struct FileDescriptor: Sendable, Hashable {
    public let rawValue: Int32

    public init(rawValue: Int32) { self.rawValue = rawValue }

    /// How a file is opened, as `open(2)` flags. Every open here adds O_CLOEXEC.
    public struct Options: OptionSet, Sendable {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// O_RDONLY (no bits): reading only.
        public static let readOnly = Options([])
        public static let writeOnly = Options(rawValue: O_WRONLY)
        public static let readWrite = Options(rawValue: O_RDWR)
        /// Refuse a symbolic link as the last component (ELOOP).
        public static let noFollow = Options(rawValue: O_NOFOLLOW)
        /// Fail unless the path names a directory.
        public static let directory = Options(rawValue: O_DIRECTORY)
        /// Never block in the open itself (a FIFO); reads of a regular file are unaffected.
        public static let nonBlocking = Options(rawValue: O_NONBLOCK)
        /// A terminal does not become the controlling terminal.
        public static let noControllingTerminal = Options(rawValue: O_NOCTTY)
        public static let create = Options(rawValue: O_CREAT)
        public static let exclusive = Options(rawValue: O_EXCL)
        public static let truncate = Options(rawValue: O_TRUNC)
        public static let append = Options(rawValue: O_APPEND)
    }

    /// Opens `path` (bytes without NUL: file names need not be UTF-8) with `options` and
    /// close-on-exec; `mode` is used when a file is created.
    public static func open(_ path: [UInt8], _ options: Options, mode: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        try at(nil, path, options, mode: mode)
    }

    /// Opens `path` as `open` does (its C string in place: no copy for a native string).
    public static func open(_ path: String, _ options: Options, mode: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        guard !path.utf8.contains(0) else { throw .invalidArgument }
        let flags = options.rawValue | O_CLOEXEC
        let fd = try Syscall.retrying { path.withCString { openat(AT_FDCWD, $0, flags, mode_t(mode)) } }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens `path` relative to this directory (`openat`).
    public func openAt(_ path: [UInt8], _ options: Options, mode: UInt32 = 0o644) throws(Errno) -> FileDescriptor {
        try Self.at(self, path, options, mode: mode)
    }

    private static func at(_ directory: FileDescriptor?, _ path: [UInt8], _ options: Options, mode: UInt32) throws(Errno) -> FileDescriptor
    {
        guard !path.contains(0) else { throw .invalidArgument }
        let flags = options.rawValue | O_CLOEXEC
        let fd = try Syscall.retrying {
            (path + [0]).withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { name in
                    openat(directory?.rawValue ?? AT_FDCWD, name.baseAddress!, flags, mode_t(mode))
                }
            }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Closes the descriptor (an EINTR from close is not retried: the descriptor is gone).
    public func close() { _ = Glibc.close(rawValue) }

    /// Runs `body`, then closes the descriptor whatever happened.
    public func closeAfter<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body()
    }

    /// Opens with `open` and reads the opened file's status, closing the descriptor again
    /// when the status cannot be read: what every opener that checks the file it got does.
    public static func openedWithStatus(_ open: () throws(Errno) -> FileDescriptor) throws(Errno) -> (FileDescriptor, FileStatus) {
        let fd = try open()
        do throws(Errno) {
            return (fd, try fd.status())
        } catch {
            fd.close()
            throw error
        }
    }

    /// The status of the open file.
    public func status() throws(Errno) -> FileStatus {
        var raw = stat()
        _ = try Syscall.checked { fstat(rawValue, &raw) }
        return FileStatus(raw)
    }

    /// Reads at most `buffer.count` bytes at `offset` (one `pread`, repeated on EINTR);
    /// 0 at the end of the file.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try Syscall.retrying { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// Fills `buffer` from `offset` until it is full or the file ends; the bytes read.
    public func readAll(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let got = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + Int64(done))
            if got == 0 { break }
            done += got
        }
        return done
    }

    /// Up to `count` bytes from `offset` (fewer only at the end of the file).
    public func read(count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { storage, initialized in
            do throws(Errno) {
                initialized = try readAll(into: UnsafeMutableRawBufferPointer(storage), at: offset)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Reads at most `buffer.count` bytes at the file position (one `read`, repeated on
    /// EINTR); 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try Syscall.retrying { Glibc.read(rawValue, base, buffer.count) }
    }

    /// Writes at most `bytes.count` bytes at the file position (one `write`, repeated on
    /// EINTR); the bytes written.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Errno) -> Int {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return 0 }
        return try Syscall.retrying { Glibc.write(rawValue, base, bytes.count) }
    }

    /// Writes all of `bytes` at the file position (repeating short writes and EINTR).
    public func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        guard let base = bytes.baseAddress else { return }
        var done = 0
        while done < bytes.count {
            done += try Syscall.retrying { Glibc.write(rawValue, base + done, bytes.count - done) }
        }
    }

    /// Writes all of `bytes` at the file position.
    public func writeAll(_ bytes: [UInt8]) throws(Errno) {
        var failure: Errno?
        bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try writeAll(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// How the file will be read, for the kernel's readahead.
    public enum Access: Sendable {
        /// Front to back once: read far ahead.
        case sequential
        /// Scattered reads: read only what is asked.
        case random
    }

    /// Tells the kernel how the whole file will be read (`posix_fadvise`; advice only).
    public func advise(_ access: Access) {
        _ = posix_fadvise(rawValue, 0, 0, access == .sequential ? POSIX_FADV_SEQUENTIAL : POSIX_FADV_RANDOM)
    }
}
