import Foundation
import Glibc
import Testing

/// A daemon killed right after its mount's root was looked at: the kernel still holds the
/// root's attributes, so a `stat` succeeds on the dead mount. `photofs status` must still
/// call it stale and the next `photofs mount` must clear it and mount.
@Suite("stale mount behind cached attributes", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct StaleMountTests {
    @Test func statusAndMountSeeADeadDaemonWhoseRootIsCached() throws {
        let library = try IntegrationLibrary(prefix: "photofs-stale-mount")
        defer { library.remove() }
        let crashed = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        var root = stat()
        #expect(stat(library.mountpoint, &root) == 0)
        crashed.crash()
        // The precondition this test is about: a plain stat still succeeds on the dead mount.
        #expect(stat(library.mountpoint, &root) == 0, "the kernel answered from its cache")
        let status = run([DaemonProcess.binary, "status"]).output
        #expect(status.contains("\(library.mountpoint): stale (daemon gone)"), "\(status)")
        let again = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        #expect(again.log.contains("stale mount"))
        #expect(IntegrationLibrary.names(library.mountpoint + "/library/all").count == library.assets.count)
        #expect(again.unmount() == 0)
    }
}
