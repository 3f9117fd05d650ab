import Foundation
import PhotoCore
import PhotoImaging

/// The maker of compatible JPEGs the daemon hands its file system: decoder processes (one
/// per core, two minutes per file at most) and the user's compatible cache
/// (`$XDG_CACHE_HOME/photofs/compatible`, which `photofs show` points to).
enum CompatibleViews {
    static func provider(environment: Environment) -> CompatibleRepresentations {
        let pool = DecoderPool(
            executable: environment.executablePath, size: ProcessInfo.processInfo.activeProcessorCount, timeLimit: 120)
        return CompatibleRepresentations(cache: CompatibleCache(environment: environment.variables), pool: pool)
    }
}
