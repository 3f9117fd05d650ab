import SystemKit

/// Thumbnails on demand: the cached PNG when it is fresh, otherwise one made in a decoder
/// process and stored in the freedesktop cache. Safe to call from many threads.
public final class ThumbnailService: Sendable {
    /// One thumbnail and where it came from.
    public struct Thumbnail: Sendable {
        /// The PNG file in the cache.
        public var path: String
        public var png: [UInt8]
        /// Nil when the cache already held it.
        public var origin: ThumbnailOrigin?
    }

    public let cache: ThumbnailCache
    private let pool: DecoderPool

    public init(pool: DecoderPool, cache: ThumbnailCache) {
        self.pool = pool
        self.cache = cache
    }

    /// The thumbnail of the file at `path` (absolute; bytes, as file names are) at `size`.
    /// `force` remakes it even when the cached one is fresh.
    public func thumbnail(forFile path: [UInt8], size: ThumbnailSize, force: Bool = false) throws(ImagingError) -> Thumbnail {
        let info: FileStatus
        do throws(Errno) {
            info = try FileStatus.of(path: path)
        } catch {
            throw .io(path: String(decoding: path, as: UTF8.self), errno: error)
        }
        return try thumbnail(path: path, info: info, size: size, force: force) { text in
            .thumbnail(path: path, box: size.pixels, text: text)
        }
    }

    /// The cached thumbnail of the file at `path` whose status is `info` when it is fresh,
    /// otherwise the one the decoder makes for `request` (given the text chunks), stored.
    func thumbnail(
        path: [UInt8], info: FileStatus, size: ThumbnailSize, force: Bool, request: ([TextPair]) -> DecoderRequest
    ) throws(ImagingError) -> Thumbnail {
        let uri = FileURI.of(absolutePath: path)
        let mtime = info.mtimeSeconds
        let version = Self.version(of: info)
        if !force, let png = cache.fresh(uri: uri, mtime: mtime, version: version, size: size) {
            return Thumbnail(path: cache.path(uri: uri, size: size), png: png, origin: nil)
        }
        let text = [
            TextPair(key: "Thumb::URI", value: uri), TextPair(key: "Thumb::MTime", value: String(mtime)),
            TextPair(key: ThumbnailCache.versionKey, value: version),
        ]
        let made = try pool.image(request(text))
        let stored = try cache.store(made.bytes, uri: uri, size: size)
        return Thumbnail(path: stored, png: made.bytes, origin: made.origin)
    }

    /// The version of a file a thumbnail records: inode, size, and modification and change
    /// times in nanoseconds. `Thumb::MTime` alone (whole seconds) misses a same-size
    /// overwrite whose mtime was set back; the change time cannot be set back.
    static func version(of info: FileStatus) -> String {
        "\(info.inode):\(info.size):\(info.mtimeNanoseconds):\(info.ctimeNanoseconds)"
    }
}
