import Foundation
import Glibc
import Testing

/// A temporary folder for a test that mounts a few pictures of its own: `library` (which the
/// test fills), the mountpoint, the catalog, and a picture cache (`XDG_CACHE_HOME`) that no
/// other test shares.
struct ScratchMount {
    let base: String
    var library: String { base + "/library" }
    var mountpoint: String { base + "/mnt" }
    var cacheHome: String { base + "/cache" }

    init(prefix: String) {
        base = temporaryDirectory(prefix)
        mkdir(library, 0o700)
        mkdir(mountpoint, 0o755)
    }

    /// Copies `source` into the library as `name`.
    func add(_ source: String, as name: String) {
        #expect(run(["/bin/cp", source, library + "/" + name]).status == 0, "cannot copy \(source)")
    }

    /// Mounts the library with the folder's catalog and cache.
    func mount() throws -> DaemonProcess {
        try DaemonProcess(
            library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite", environment: ["XDG_CACHE_HOME": cacheHome])
    }

    func remove() {
        run(["/bin/rm", "-rf", base])
    }
}
