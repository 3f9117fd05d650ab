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

    /// Opens the file at `path` below the library folder `root` like the mount opens it
    /// (`SourceOpener`: below the root, no symbolic link at any component), only while it is
    /// the version `stamp` describes (ESTALE otherwise).
    convenience init(below root: [UInt8], path: [UInt8], stamp: FileStamp) throws(ImagingError) {
        let fd = try Self.open(below: root, path: path, stamp: stamp)
        try self.init(owning: fd.rawValue, name: String(decoding: root + [UInt8(ascii: "/")] + path, as: UTF8.self))
    }

    /// The descriptor `init(below:path:stamp:)` reads (the caller closes it).
    static func open(below root: [UInt8], path: [UInt8], stamp: FileStamp) throws(ImagingError) -> FileDescriptor {
        let displayPath = String(decoding: root + [UInt8(ascii: "/")] + path, as: UTF8.self)
        let library: SourceOpener
        do throws(Errno) {
            library = try SourceOpener.library(at: root)
        } catch {
            throw .io(path: displayPath, errno: error)
        }
        defer { library.close() }
        do throws(SourceOpener.Failure) {
            return try path.withUnsafeBufferPointer { (bytes) throws(SourceOpener.Failure) in try library.open(bytes, expecting: stamp) }
        } catch {
            switch error {
            case .changed: throw .io(path: displayPath, errno: .stale)
            case .system(let code): throw .io(path: displayPath, errno: code)
            }
        }
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

    /// The open file (still owned by this value).
    var descriptor: FileDescriptor { fd }

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
