import Glibc
import MediaFormats
import PhotoCore

/// A video tile's length for its "0:42": `MovieDuration` over the file, opened without
/// following a link, and only while it still has the catalog's size.
enum MovieSeconds {
    static func of(_ asset: Asset, path: String) -> Double? {
        guard asset.metadata.format.kind == .video else { return nil }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, Int64(status.st_size) == asset.size else { return nil }
        return MovieDuration.seconds(of: DescriptorBytes(fd: fd, size: asset.size))
    }
}

/// The bytes of an open file read with `pread`, for the few reads `MovieDuration` makes;
/// the descriptor stays its opener's.
private struct DescriptorBytes: ByteSource {
    let fd: Int32
    let size: Int64

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { pread(fd, $0.baseAddress, count, off_t(offset)) }
        guard got >= 0 else { throw .io(errno: errno) }
        return Array(bytes[0..<got])
    }
}
