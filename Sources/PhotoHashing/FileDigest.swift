import Glibc

/// The SHA-256 of a whole file, streamed through one reused buffer: what `photofs index
/// --verify` compares, and how a catalog made before sampled fingerprints is matched.
public enum FileDigest {
    /// Bytes read per `read` call.
    public static let bufferSize = 1 << 20

    /// Why a file could not be hashed.
    public enum Failure: Error, Hashable, Sendable {
        /// `open` or `read` failed (errno), or the path holds a NUL byte (EINVAL).
        case system(errno: Int32)
    }

    /// The lowercase hex SHA-256 of the file at `path` (raw bytes: names need not be UTF-8).
    /// Never follows a symbolic link at the end of the path.
    public static func sha256Hex(path: [UInt8]) throws(Failure) -> String {
        guard !path.contains(0) else { throw .system(errno: EINVAL) }
        let fd = (path + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK) }
        }
        guard fd >= 0 else { throw .system(errno: errno) }
        defer { close(fd) }
        // The whole file is read once, front to back: ask for large readahead.
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 64)
        defer { buffer.deallocate() }
        var hasher = SHA256()
        while true {
            let got = read(fd, buffer.baseAddress, buffer.count)
            if got < 0 {
                if errno == EINTR { continue }
                throw .system(errno: errno)
            }
            if got == 0 { break }
            hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
        }
        return SHA256.hex(hasher.finalize())
    }
}
