import Glibc
import MediaFormats

/// A file opened for reading: whole-file reads for images, `pread` for the few boxes of
/// a video that are needed. Closes its descriptor when released.
final class FileBytes: ByteSource {
    /// The path for messages (non-UTF-8 bytes replaced).
    let path: String
    let size: Int64
    private let fd: Int32

    convenience init(path: [UInt8]) throws(ImagingError) {
        let displayPath = String(decoding: path, as: UTF8.self)
        let fd = (path + [0]).withUnsafeBufferPointer { name in
            name.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
        }
        guard fd >= 0 else { throw .io(path: displayPath, errno: errno) }
        try self.init(owning: fd, name: displayPath)
    }

    /// Takes over an open descriptor (closed when this is released); `name` is for messages.
    init(owning fd: Int32, name: String) throws(ImagingError) {
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .io(path: name, errno: code)
        }
        self.path = name
        self.fd = fd
        self.size = Int64(info.st_size)
    }

    deinit { close(fd) }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        let wanted = Int(min(Int64(count), size - offset))
        // Read straight into the array's storage: a whole photo need not be zeroed first.
        var failure: Int32 = 0
        let buffer = [UInt8](unsafeUninitializedCapacity: wanted) { storage, initialized in
            var done = 0
            while done < wanted {
                let got = pread(fd, storage.baseAddress! + done, wanted - done, off_t(offset) + off_t(done))
                if got < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    break
                }
                if got == 0 { break }
                done += got
            }
            initialized = done
        }
        if failure != 0 { throw .io(errno: failure) }
        return buffer
    }

    /// The whole file, refused beyond `limit` bytes.
    func all(limit: Int64) throws(ImagingError) -> [UInt8] {
        guard size <= limit else { throw .tooLarge(width: 0, height: 0) }
        do {
            return try read(at: 0, count: Int(size))
        } catch {
            if case .io(let code) = error { throw .io(path: path, errno: code) }
            throw .io(path: path, errno: EIO)
        }
    }
}
