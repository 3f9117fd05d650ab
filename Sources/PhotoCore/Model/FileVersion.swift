/// One version of one asset's file: its id and the file's size, mtime, inode and ctime.
/// A stored redaction plan serves only the version it was made from, so plans are kept,
/// read ahead and compared under this key.
public struct FileVersion: Hashable, Sendable {
    public let id: AssetID
    public let size: Int64
    public let mtimeNanoseconds: Int64
    public let inode: UInt64
    public let ctimeNanoseconds: Int64

    public init(id: AssetID, size: Int64, mtimeNanoseconds: Int64, inode: UInt64, ctimeNanoseconds: Int64) {
        self.id = id
        self.size = size
        self.mtimeNanoseconds = mtimeNanoseconds
        self.inode = inode
        self.ctimeNanoseconds = ctimeNanoseconds
    }

    /// The version `asset` describes.
    public init(of asset: Asset) {
        self.init(
            id: asset.id, size: asset.size, mtimeNanoseconds: asset.mtimeNanoseconds, inode: asset.inode,
            ctimeNanoseconds: asset.ctimeNanoseconds)
    }
}
