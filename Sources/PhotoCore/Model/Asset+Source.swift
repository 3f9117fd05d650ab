import SystemKit

extension Asset {
    /// The version of the file the catalog describes (size, inode, times): what an open of
    /// its source checks before anything planned from the catalog is applied to it.
    public var fileStamp: FileStamp {
        FileStamp(size: size, inode: inode, mtimeNanoseconds: mtimeNanoseconds, ctimeNanoseconds: ctimeNanoseconds)
    }
}

extension Asset {
    /// The library root that `path` (the root, `/`, then this asset's path, as the picker
    /// and reports write it) starts with; nil when `path` does not end with the asset's path.
    public func libraryRoot(inPath path: String) -> String? {
        let name = "/" + self.path.display
        guard path.utf8.count > name.utf8.count, path.hasSuffix(name) else { return nil }
        return String(decoding: path.utf8.dropLast(name.utf8.count), as: UTF8.self)
    }
}

extension SourceOpener {
    /// Opens `path` below the library root (no symlink at any component).
    public func open(_ path: LibraryPath) throws(Errno) -> FileDescriptor {
        try path.withBytes { (bytes) throws(Errno) in try open(bytes) }
    }

    /// Opens `asset`'s source below the library root, checked to be the catalogued version.
    public func open(_ asset: Asset) throws(Failure) -> FileDescriptor {
        let version = asset.fileStamp
        return try asset.path.withBytes { (bytes) throws(Failure) in try open(bytes, expecting: version) }
    }
}
