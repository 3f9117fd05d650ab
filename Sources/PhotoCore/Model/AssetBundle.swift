import MediaFormats

/// Files that belong together though they are separate assets: a RAW+JPEG pair (same
/// folder, same name but for the extension) and the XMP sidecars beside a photo
/// (`IMG.xmp`, `IMG.jpg.xmp`), which are not assets and are never served. `photofs show`
/// names them. Pure: the caller lists the catalogue's paths and the sidecars it found.
public enum AssetBundle {
    /// The file name without its last extension, and the folder: what pairs files.
    static func key(_ path: LibraryPath) -> (folder: [UInt8], stem: [UInt8]) {
        let name = path.fileName
        let stem = name.lastIndex(of: UInt8(ascii: ".")).map { Array(name[..<$0]) } ?? name
        return (path.folder.bytes, stem)
    }

    /// The other assets in `path`'s folder with the same stem, among `candidates`.
    public static func partners(of path: LibraryPath, among candidates: [(path: LibraryPath, format: MediaFormat)]) -> [(
        path: LibraryPath, format: MediaFormat
    )] {
        let own = key(path)
        return candidates.filter { candidate in
            guard candidate.path != path else { return false }
            let other = key(candidate.path)
            return other.folder == own.folder && other.stem == own.stem
        }
    }

    /// The badge of a group of formats: `RAW+JPEG` when it holds a raw (or DNG) file and a
    /// JPEG, nil otherwise.
    public static func badge(_ formats: [MediaFormat]) -> String? {
        let raw = formats.contains { $0 == .raw || $0 == .dng }
        return raw && formats.contains(.jpeg) ? "RAW+JPEG" : nil
    }
}
