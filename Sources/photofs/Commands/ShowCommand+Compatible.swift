import PhotoCatalog
import PhotoCore
import PhotoImaging
import SystemKit

/// Where `photofs show` says an asset's compatible JPEGs are: one per app with the
/// compatible representation (at its quality and location policy), in the cache of the user
/// running it (`$XDG_CACHE_HOME/photofs/compatible`, the daemon's when the same user mounts).
extension ShowCommand {
    struct CompatibleFile {
        var app: String
        var path: String
        /// Whether the JPEG is made (a mount makes it on the app's first look at the file).
        var cached: Bool
    }

    /// The compatible JPEGs of `asset`, empty when no app is served it as JPEG.
    static func compatibleFiles(of asset: Asset, catalog: Catalog, environment: Environment) -> [CompatibleFile] {
        guard let apps = try? catalog.apps(), let root = (try? catalog.libraryRoot) ?? nil else { return [] }
        let cache = CompatibleCache(environment: environment.variables)
        let source = root + [UInt8(ascii: "/")] + asset.path.bytes
        return apps.values.sorted { $0.name < $1.name }.compactMap { app -> CompatibleFile? in
            guard app.representation.servesJPEG(for: asset.metadata.format),
                let key = try? CompatibleCache.Key(path: source, quality: app.quality, location: app.locationPolicy)
            else { return nil }
            let path = cache.path(for: key)
            return CompatibleFile(app: app.name, path: path, cached: FileSystem.exists(path))
        }
    }
}
