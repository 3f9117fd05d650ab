import PhotoCore
import SystemKit

/// The picker's way to a library file: `path` is the library root, `/`, then the asset's
/// path, and the file is opened below that root like the mount opens it (`SourceOpener`:
/// no symbolic link at any component, and only while it is the catalogued version).
enum LibrarySource {
    /// The asset's open file (the caller closes it), or nil.
    static func open(_ asset: Asset, at path: String) -> FileDescriptor? {
        guard let library = library(of: asset, at: path) else { return nil }
        defer { library.close() }
        return try? library.open(asset)
    }

    /// The asset's open file while it is a regular file of the catalogued size only (what a
    /// video's length needs; the caller closes it), or nil.
    static func open(_ asset: Asset, sizeOnlyAt path: String) -> FileDescriptor? {
        guard let library = library(of: asset, at: path) else { return nil }
        defer { library.close() }
        guard let fd = try? library.open(asset.path) else { return nil }
        guard let status = try? fd.status(), status.kind == .regular, status.size == asset.size else {
            fd.close()
            return nil
        }
        return fd
    }

    /// An opener below the library root that `path` starts with.
    private static func library(of asset: Asset, at path: String) -> SourceOpener? {
        guard let root = asset.libraryRoot(inPath: path) else { return nil }
        return try? SourceOpener.library(at: root)
    }
}
