import PhotoCore
import SystemKit

extension ThumbnailService {
    /// The thumbnail of `asset`, whose file is below the library folder `root`, at `size`.
    /// The file is opened like the mount opens it, here and in the decoder process: below
    /// the root, through no symbolic link, and only while it is the catalogued version
    /// (ESTALE otherwise).
    public func thumbnail(of asset: Asset, libraryRoot root: [UInt8], size: ThumbnailSize, force: Bool = false) throws(ImagingError)
        -> Thumbnail
    {
        let stamp = asset.fileStamp
        let relative = asset.path.bytes
        let fd = try FileBytes.open(below: root, path: relative, stamp: stamp)
        defer { fd.close() }
        let path = root + [UInt8(ascii: "/")] + relative
        let info: FileStatus
        do throws(Errno) {
            info = try fd.status()
        } catch {
            throw .io(path: String(decoding: path, as: UTF8.self), errno: error)
        }
        return try thumbnail(path: path, info: info, size: size, force: force) { text in
            .thumbnailBelow(root: root, path: relative, stamp: stamp, box: size.pixels, text: text)
        }
    }
}
