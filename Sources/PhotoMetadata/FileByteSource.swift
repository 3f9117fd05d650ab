import MediaFormats
import PhotoCore
import SystemKit

/// A `ByteSource` over one open file, read with `pread` so that several walkers (and
/// threads) can read it without sharing a file position. It owns its descriptor and
/// closes it when released.
public final class FileByteSource: ByteSource, @unchecked Sendable {
    // @unchecked: `descriptor` and `size` never change after init, and pread does not
    // use the shared file offset, so concurrent reads are safe.
    private let descriptor: FileDescriptor
    public let size: Int64

    /// Why a file could not be opened.
    public enum OpenError: Error, Hashable, Sendable {
        /// `open` or `fstat` failed (or the path holds a NUL byte: EINVAL).
        case system(Errno)
        /// The path is not a regular file (a directory, a device, a FIFO).
        case notRegularFile
    }

    /// Opens the file at `path`, given as raw bytes because library names need not be
    /// UTF-8. Refuses symbolic links (O_NOFOLLOW) and anything but a regular file, and
    /// never blocks on a FIFO (O_NONBLOCK only affects the open).
    public init(path: [UInt8]) throws(OpenError) {
        let fd: FileDescriptor
        let status: FileStatus
        do throws(Errno) {
            (fd, status) = try FileDescriptor.openedWithStatus { () throws(Errno) in
                try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking])
            }
        } catch {
            throw .system(error)
        }
        guard status.kind == .regular else {
            fd.close()
            throw .notRegularFile
        }
        descriptor = fd
        size = status.size
    }

    /// Opens `path` given as a String (tests, tools).
    public convenience init(path: String) throws(OpenError) {
        try self.init(path: Array(path.utf8))
    }

    deinit {
        descriptor.close()
    }

    /// Tells the kernel that reads will be scattered, so that it reads what is asked for and
    /// no readahead besides (an index reads a few hundred KiB of a multi-MB file).
    public func adviseRandomAccess() {
        descriptor.advise(.random)
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
        do throws(Errno) {
            return try descriptor.readAll(into: buffer, at: offset)
        } catch {
            throw .io(errno: error.rawValue)
        }
    }
}
