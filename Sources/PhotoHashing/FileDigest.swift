import SystemKit

/// The SHA-256 of a whole file, streamed through one reused buffer: what `photofs index
/// --verify` compares, and how a catalog made before sampled fingerprints is matched.
public enum FileDigest {
    /// Bytes read per `read` call.
    public static let bufferSize = 1 << 20

    /// Why a file could not be hashed.
    public enum Failure: Error, Hashable, Sendable {
        /// `open` or `read` failed, or the path holds a NUL byte (EINVAL).
        case system(Errno)
    }

    /// The lowercase hex SHA-256 of the file at `path` (raw bytes: names need not be UTF-8).
    /// Never follows a symbolic link at the end of the path.
    public static func sha256Hex(path: [UInt8]) throws(Failure) -> String {
        do throws(Errno) {
            let fd = try FileDescriptor.open(path, [.readOnly, .noFollow, .nonBlocking])
            defer { fd.close() }
            // The whole file is read once, front to back: ask for large readahead.
            fd.advise(.sequential)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 64)
            defer { buffer.deallocate() }
            var hasher = SHA256()
            while true {
                let got = try fd.read(into: buffer)
                if got == 0 { break }
                hasher.update(UnsafeRawBufferPointer(rebasing: buffer[0..<got]))
            }
            return SHA256.hex(hasher.finalize())
        } catch {
            throw .system(error)
        }
    }
}
