import MediaFormats
import PhotoCore
import SystemKit

/// A video tile's length for its "0:42": `MovieDuration` over the file, opened below the
/// library root like the mount opens it (`LibrarySource`), and only while it still has the
/// catalog's size.
enum MovieSeconds {
    static func of(_ asset: Asset, path: String) -> Double? {
        guard asset.metadata.format.kind == .video else { return nil }
        guard let fd = LibrarySource.open(asset, sizeOnlyAt: path) else { return nil }
        defer { fd.close() }
        return MovieDuration.seconds(of: DescriptorBytes(fd: fd, size: asset.size))
    }
}

/// The bytes of an open file read with `pread`, for the few reads `MovieDuration` makes;
/// the descriptor stays its opener's.
private struct DescriptorBytes: ByteSource {
    let fd: FileDescriptor
    let size: Int64

    func read(at offset: Int64, count: Int) throws(ByteSourceError) -> [UInt8] {
        guard offset >= 0, offset <= size, count >= 0 else { throw .outOfRange(offset: offset) }
        do throws(Errno) {
            return try fd.read(count: count, at: offset)
        } catch {
            throw .io(errno: error.rawValue)
        }
    }
}
