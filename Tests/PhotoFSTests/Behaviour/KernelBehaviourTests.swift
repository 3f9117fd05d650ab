import Foundation
import Glibc
import PhotoMetadata
import TestSupport
import Testing

/// The behaviour suite (`ViewBehaviour`) through a real kernel mount of the shipped binary
/// (`photofs mount`), the same cases the in-process target runs against the view layer.
@Suite("behaviour: kernel mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct KernelBehaviourTests {
    /// Runs `body` with a client on a fresh mount of a freshly generated and catalogued
    /// library; always unmounts and expects a clean exit.
    static func withClient(_ body: (KernelClient, BehaviourLibrary) throws -> Void) throws {
        let library = try BehaviourLibrary(root: testRoot)
        defer { library.remove() }
        let mountpoint = library.base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library.library, mountpoint: mountpoint, catalog: library.catalog)
        defer { #expect(daemon.unmount() == 0) }
        try body(KernelClient(mountpoint: mountpoint), library)
    }

    /// Every shared scenario (`ViewBehaviour.shared`), one test case each.
    @Test(arguments: ViewBehaviour.shared)
    func scenario(_ scenario: ViewBehaviour.Scenario) throws {
        try Self.withClient { try scenario.run($0, $1, hasLocation: Self.hasLocation) }
    }

    /// Whether a file holds a location, as the indexer reads it (libexif and the location model).
    static func hasLocation(_ bytes: [UInt8]) -> Bool {
        let directory = temporaryDirectory("photofs-location")
        defer { run(["/bin/rm", "-rf", directory]) }
        let path = directory + "/file.jpg"
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)),
            let analysis = try? FileAnalyzer().analyze(absolutePath: Array(path.utf8))
        else { return true }
        return analysis.metadata.location != nil || !analysis.metadata.locationSources.isEmpty
    }
}
