import MediaFormats
import PhotoHashing
import SystemKit

/// The on-disk cache of compatible JPEGs: one file per (source identity, quality, location
/// policy), bounded in bytes, least recently used first out. The source identity is its
/// device, inode, size, modification time and change time, so a changed source has a new
/// key and its old JPEG is never served again (it ages out), even after a same-size
/// overwrite whose modification time was set back (`touch -d`): the change time cannot be. Folder 0700, files 0600, written by
/// rename, so concurrent writers and readers never see half a file.
public struct CompatibleCache: Sendable {
    /// The cache folder (`$XDG_CACHE_HOME/photofs/compatible` by default).
    public let root: String
    /// The most bytes the cache keeps after an insert.
    public let maxBytes: Int64

    public init(root: String, maxBytes: Int64 = 2 << 30) {
        self.root = root
        self.maxBytes = maxBytes
    }

    /// The cache of the user whose environment this is.
    public init(environment: [String: String], maxBytes: Int64 = 2 << 30) {
        let base =
            environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? ((environment["HOME"] ?? "/tmp") + "/.cache")
        self.init(root: base + "/photofs/compatible", maxBytes: maxBytes)
    }

    /// What a cached JPEG was made from; its key names the file.
    public struct Key: Hashable, Sendable {
        public var device: UInt64
        public var inode: UInt64
        public var size: Int64
        public var mtimeNanoseconds: Int64
        public var ctimeNanoseconds: Int64
        public var quality: Int
        public var location: LocationPolicy

        /// The key of the file at `path` as it is now.
        public init(path: [UInt8], quality: Int, location: LocationPolicy) throws(ImagingError) {
            let status: FileStatus
            do throws(Errno) {
                status = try FileStatus.of(path: path)
            } catch {
                throw .io(path: String(decoding: path, as: UTF8.self), errno: error)
            }
            self.init(status: status, quality: quality, location: location)
        }

        /// The key of the file whose `stat` (or `fstat`) this is.
        public init(status: FileStatus, quality: Int, location: LocationPolicy) {
            device = status.device
            inode = status.inode
            size = status.size
            mtimeNanoseconds = status.mtimeNanoseconds
            ctimeNanoseconds = status.ctimeNanoseconds
            self.quality = quality
            self.location = location
        }

        /// The file name: hex of a digest of every field.
        var fileName: String {
            let text = "\(device):\(inode):\(size):\(mtimeNanoseconds):\(ctimeNanoseconds):\(quality):\(location.rawValue)"
            return ThumbnailCache.hex(SHA256.hash(Array(text.utf8))).prefix(40) + ".jpg"
        }
    }

    /// Where the JPEG for `key` is (whether or not it exists yet).
    public func path(for key: Key) -> String { root + "/" + key.fileName }

    /// The cached JPEG's size for `key`, marking it used; nil when absent.
    public func lookup(_ key: Key) -> Int64? {
        let file = path(for: key)
        guard let status = try? FileStatus.of(path: file) else { return nil }
        // The modification time records the last use, for eviction (atime is often off).
        try? FileSystem.touch(file)
        return status.size
    }

    /// Stores `jpeg` for `key`, then evicts least recently used files beyond `maxBytes`.
    @discardableResult
    public func store(_ jpeg: [UInt8], for key: Key) throws(ImagingError) -> String {
        try ThumbnailCache.makeFolders(root)
        let final = path(for: key)
        try ThumbnailCache.writeAtomically(jpeg, to: final)
        evict(keeping: final)
        return final
    }

    /// Deletes the least recently used files until the cache holds at most `maxBytes`
    /// (never `keeping`, the file just written).
    public func evict(keeping: String? = nil) {
        guard let names = try? FileSystem.names(inDirectory: root) else { return }
        var entries: [(path: String, size: Int64, used: Int64)] = []
        var total: Int64 = 0
        for bytes in names {
            let name = String(decoding: bytes, as: UTF8.self)
            guard name.hasSuffix(".jpg") else { continue }
            let file = root + "/" + name
            guard let status = try? FileStatus.of(path: file) else { continue }
            total += status.size
            entries.append((file, status.size, status.mtimeNanoseconds))
        }
        guard total > maxBytes else { return }
        for entry in entries.sorted(by: { $0.used < $1.used }) where total > maxBytes && entry.path != keeping {
            if (try? FileSystem.remove(entry.path)) != nil { total -= entry.size }
        }
    }
}
