import Dispatch
import MediaFormats
import PhotoCore
import Synchronization
import SystemKit

/// The compatible JPEGs a mount serves (`RepresentationProviding`): made in decoder
/// processes from the source bytes of the checked descriptor the view layer opened and
/// handed in, stored in the on-disk `CompatibleCache` (so a remount reuses them), and
/// remembered per catalogued version of an asset, so that a `stat` after the first costs
/// a table read. A changed source is another catalogued version (size, times) and another
/// cache key, so it is made again; the old JPEG ages out of the cache.
public final class CompatibleRepresentations: RepresentationProviding {
    public let cache: CompatibleCache
    private let pool: DecoderPool
    private let made = Mutex<[Version: RepresentedFile]>([:])
    /// Versions whose source the decoder refused (or crashed or hung on): not tried again,
    /// so a hostile file costs one decoder process, not one per `stat`.
    private let refused = Mutex<[Version: String]>([:])
    /// One asset version is made by one thread at a time; others wait for its result.
    private let making: [DispatchSemaphore] = (0..<32).map { _ in DispatchSemaphore(value: 1) }

    /// One catalogued version of an asset in one representation.
    private struct Version: Hashable {
        var id: AssetID
        /// The catalogued source file: a rewritten or replaced file is another version.
        var stamp: FileStamp
        var quality: UInt8
        var location: LocationPolicy
    }

    public init(cache: CompatibleCache, pool: DecoderPool) {
        self.cache = cache
        self.pool = pool
    }

    public func file(of asset: Asset, as form: FileRepresentation, location: LocationPolicy) throws(RepresentationError)
        -> RepresentedFile?
    {
        let version = try Self.version(of: asset, as: form, location: location)
        if let known = made.withLock({ $0[version] }) { return known }
        if let reason = refused.withLock({ $0[version] }) { throw .cannotConvert(reason) }
        return nil
    }

    public func make(of asset: Asset, as form: FileRepresentation, location: LocationPolicy, source: Int32) throws(RepresentationError)
        -> RepresentedFile
    {
        var owned: Int32? = source
        defer { if let owned { FileDescriptor(rawValue: owned).close() } }
        let version = try Self.version(of: asset, as: form, location: location)
        let lock = making[Int(UInt(bitPattern: version.hashValue) % UInt(making.count))]
        lock.wait()
        defer { lock.signal() }
        if let known = made.withLock({ $0[version] }) { return known }
        if let reason = refused.withLock({ $0[version] }) { throw .cannotConvert(reason) }
        owned = nil
        let file = try make(version, source: source, name: asset.path.display)
        made.withLock { $0[version] = file }
        return file
    }

    /// The catalogued version `asset` names in `form`; only compatible JPEGs are made.
    private static func version(of asset: Asset, as form: FileRepresentation, location: LocationPolicy) throws(RepresentationError)
        -> Version
    {
        guard case .compatibleJPEG(let quality) = form else { throw .cannotConvert("the original is not made") }
        return Version(id: asset.id, stamp: asset.fileStamp, quality: quality, location: location)
    }

    public func refusals() -> [AssetID: String] {
        refused.withLock { table in
            var byAsset: [AssetID: String] = [:]
            for (version, reason) in table { byAsset[version.id] = reason }
            return byAsset
        }
    }

    public func forget(_ file: RepresentedFile) {
        made.withLock { table in
            for (version, known) in table where known == file { table[version] = nil }
        }
    }

    /// The cached JPEG of the source open at `fd` (closed here), made when not cached.
    private func make(_ version: Version, source fd: Int32, name: String) throws(RepresentationError) -> RepresentedFile {
        let (quality, location) = (Int(version.quality), version.location)
        let bytes: FileBytes
        do throws(ImagingError) {
            bytes = try FileBytes(owning: fd, name: name)
        } catch {
            if case .io(_, let code) = error { throw .sourceUnreadable(errno: code) }
            throw .sourceUnreadable(errno: .ioError)
        }
        let status: FileStatus
        do throws(Errno) {
            status = try FileDescriptor(rawValue: fd).status()
        } catch {
            throw .sourceUnreadable(errno: error)
        }
        let key = CompatibleCache.Key(status: status, quality: quality, location: location)
        if let size = cache.lookup(key) { return RepresentedFile(path: cache.path(for: key), size: size) }
        let jpeg: [UInt8]
        do throws(ImagingError) {
            let data = try bytes.all(limit: Thumbnailer.maxImageFileSize)
            jpeg = try pool.image(.compatibleJPEGData(bytes: data, quality: quality, location: location)).bytes
        } catch {
            switch error {
            case .io(_, let code): throw .sourceUnreadable(errno: code)
            // A busy machine, not the file: the next look tries again.
            case .timedOut, .workerUnavailable: break
            default: refused.withLock { $0[version] = "\(error)" }
            }
            throw .cannotConvert("\(error)")
        }
        do throws(ImagingError) {
            return RepresentedFile(path: try cache.store(jpeg, for: key), size: Int64(jpeg.count))
        } catch {
            if case .io(_, let code) = error { throw .cacheUnwritable(errno: code) }
            throw .cacheUnwritable(errno: .ioError)
        }
    }
}
