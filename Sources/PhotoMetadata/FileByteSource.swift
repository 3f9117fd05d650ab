import Glibc
import MediaFormats
import PhotoCore

/// A `ByteSource` over one open file, read with `pread` so that several walkers (and
/// threads) can read it without sharing a file position. It owns its descriptor and
/// closes it when released.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    // @unchecked: `descriptor` and `size` never change after init, and pread does not
    // use the shared file offset, so concurrent reads are safe.
    private let descriptor: Int32
    public let size: Int64

    /// Why a file could not be opened.
    public enum OpenError: Error, Hashable, Sendable {
        /// `open` or `fstat` failed (errno).
        case system(errno: Int32)
        /// The path is not a regular file (a directory, a device, a FIFO).
        case notRegularFile
    }

    /// Opens the file at `path`, given as raw bytes because library names need not be
    /// UTF-8. Refuses symbolic links (O_NOFOLLOW) and anything but a regular file, and
    /// never blocks on a FIFO (O_NONBLOCK only affects the open).
    public init(path: [UInt8]) throws(OpenError) {
        guard !path.contains(0) else { throw .system(errno: EINVAL) }
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        }
        guard fd >= 0 else { throw .system(errno: errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .system(errno: code)
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw .notRegularFile
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    /// Opens `path` given as a String (tests, tools).
    public convenience init(path: String) throws(OpenError) {
        try self.init(path: Array(path.utf8))
    }

    deinit {
        close(descriptor)
    }

    /// Tells the kernel that reads will be scattered, so that it reads what is asked for and
    /// no readahead besides (an index reads a few hundred KiB of a multi-MB file).
    public func adviseRandomAccess() {
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_RANDOM)
    }

    public func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        let wanted = Int(min(Int64(count), size - offset))
        guard wanted > 0 else { return [] }
        var result = [UInt8](repeating: 0, count: wanted)
        let outcome = result.withUnsafeMutableBytes { buffer in
            Result { () throws(ByteSourceError) -> Int in try read(into: buffer, at: offset) }
        }
        let got = try outcome.get()
        if got < wanted { result.removeSubrange(got...) }
        return result
    }

    /// Fills `buffer` from `offset` (fewer bytes only at the end of the file); returns the
    /// number of bytes read. Lets callers that stream a whole file reuse one buffer.
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(ByteSourceError) -> Int {
        guard offset >= 0 else { throw .outOfRange(offset: offset) }
        guard let base = buffer.baseAddress else { return 0 }
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, base + done, buffer.count - done, off_t(offset + Int64(done)))
            if got < 0 {
                if errno == EINTR { continue }
                throw .io(errno: errno)
            }
            if got == 0 { break }
            done += got
        }
        return done
    }
}
