import Glibc
import TestSupport

@testable import MediaFormats

/// A file read with `pread`, for corpus tests only (the production source lives in PhotoMetadata).
final class FileByteSource: ByteSource {
    let fd: Int32
    let size: Int64

    init?(path: String) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return nil
        }
        self.fd = fd
        self.size = Int64(info.st_size)
    }

    deinit { close(fd) }

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        var buffer = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 { throw .io(errno: errno) }
            if n == 0 { break }
            done += n
        }
        return Array(buffer.prefix(done))
    }

    /// Reads a whole file into memory (for mutation tests).
    static func contents(of path: String) -> [UInt8]? {
        guard let source = FileByteSource(path: path) else { return nil }
        return try? source.read(at: 0, count: Int(source.size))
    }
}

/// The shared photo corpus (found by `SharedCorpus`).
enum Corpus {
    static let directory = SharedCorpus.directory
}
