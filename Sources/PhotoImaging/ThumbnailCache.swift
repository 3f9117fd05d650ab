import MediaFormats
import SystemKit

/// The freedesktop thumbnail cache: `$XDG_CACHE_HOME/thumbnails/<size>/<md5 of URI>.png`
/// (`~/.cache` when unset), folders 0700 and files 0600, each PNG carrying `Thumb::URI` and
/// `Thumb::MTime` so that any file manager browsing the library reuses them.
public struct ThumbnailCache: Sendable {
    /// The `thumbnails` folder.
    public let root: String

    public init(root: String) { self.root = root }

    /// The cache of the user whose environment this is.
    public init(environment: [String: String]) {
        let base: String
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            base = cache
        } else {
            base = (environment["HOME"] ?? "/tmp") + "/.cache"
        }
        self.init(root: base + "/thumbnails")
    }

    /// Where the thumbnail of `uri` at `size` lives.
    public func path(uri: String, size: ThumbnailSize) -> String {
        root + "/" + size.folder + "/" + Self.hex(MD5.hash(Array(uri.utf8))) + ".png"
    }

    /// The key of the text chunk that names the file version a thumbnail was made from
    /// (the standard allows keys of an application's own; readers ignore it).
    public static let versionKey = "X-PhotoFS::Version"

    /// The cached PNG when it exists and was made from the file as it is now (its
    /// `Thumb::URI` and `Thumb::MTime` match, and its `versionKey` chunk when `version` is
    /// given: a same-size overwrite with its mtime set back keeps `Thumb::MTime` but not the
    /// change time); nil otherwise.
    public func fresh(uri: String, mtime: Int64, version: String? = nil, size: ThumbnailSize) -> [UInt8]? {
        guard let png = try? FileBytes(path: Array(path(uri: uri, size: size).utf8)).all(limit: 16 << 20) else { return nil }
        let text = PNGChunks.text(of: png)
        guard text["Thumb::URI"] == uri, text["Thumb::MTime"] == String(mtime) else { return nil }
        if let version, text[Self.versionKey] != version { return nil }
        return png
    }

    /// Writes `png` for `uri` at `size` atomically (a temporary file renamed into place).
    public func store(_ png: [UInt8], uri: String, size: ThumbnailSize) throws(ImagingError) -> String {
        let folder = root + "/" + size.folder
        try Self.makeFolders(folder)
        let final = path(uri: uri, size: size)
        try Self.writeAtomically(png, to: final)
        return final
    }

    /// Writes `bytes` to a temporary file (mode 0600) beside `final` and renames it into
    /// place; threads that make the same file race harmlessly, the last rename wins.
    static func writeAtomically(_ bytes: [UInt8], to final: String) throws(ImagingError) {
        do throws(ReplacementFile.Failure) {
            let file = try ReplacementFile(replacing: final, suffix: ".\(CurrentProcess.id).\(UInt32.random(in: 0...UInt32.max)).tmp")
            try file.write(bytes)
            try file.commit()
        } catch {
            throw .io(path: error.path, errno: error.errno)
        }
    }

    /// Lower-case hex digits, as the standard spells the file name.
    static func hex(_ digest: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(digest.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }

    /// Creates `folder` and its parents with mode 0700 where missing.
    static func makeFolders(_ folder: String) throws(ImagingError) {
        var path = ""
        for component in folder.split(separator: "/") {
            path += "/" + component
            do throws(Errno) {
                try FileSystem.makeDirectory(path, mode: 0o700)
            } catch {
                throw .io(path: path, errno: error)
            }
        }
    }
}
