import MediaFormats
import SystemKit

/// A file opened for reading: whole-file reads for images, `pread` for the few boxes of
/// a video that are needed. Closes its descriptor when released.
final class FileBytes: ByteSource {
    /// The path for messages (non-UTF-8 bytes replaced).
    let path: String
    let size: Int64
    private let fd: FileDescriptor

    convenience init(path: [UInt8]) throws(ImagingError) {
        let displayPath = String(decoding: path, as: UTF8.self)
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, .readOnly)
        } catch {
            throw .io(path: displayPath, errno: error)
        }
        try self.init(owning: fd.rawValue, name: displayPath)
    }

    /// Takes over an open descriptor (closed when this is released); `name` is for messages.
    init(owning fd: Int32, name: String) throws(ImagingError) {
        let descriptor = FileDescriptor(rawValue: fd)
        let status: FileStatus
        do throws(Errno) {
            status = try descriptor.status()
        } catch {
            descriptor.close()
            throw .io(path: name, errno: error)
        }
        self.path = name
        self.fd = descriptor
        self.size = status.size
    }

    deinit { fd.close() }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        let wanted = Int(min(Int64(count), size - offset))
        // Read straight into the array's storage: a whole photo need not be zeroed first.
        do throws(Errno) {
            return try fd.read(count: wanted, at: offset)
        } catch {
            throw .io(errno: error.rawValue)
        }
    }

    /// The whole file, refused beyond `limit` bytes.
    func all(limit: Int64) throws(ImagingError) -> [UInt8] {
        guard size <= limit else { throw .tooLarge(width: 0, height: 0) }
        do {
            return try read(at: 0, count: Int(size))
        } catch {
            if case .io(let code) = error { throw .io(path: path, errno: Errno(rawValue: code)) }
            throw .io(path: path, errno: .ioError)
        }
    }
}
