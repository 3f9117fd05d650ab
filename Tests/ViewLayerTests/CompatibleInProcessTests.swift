import Foundation
import FuseKit
import Glibc
import PhotoCatalog
import PhotoCore
import PhotoImaging
import TestSupport
import Testing

/// The compatible representation through the view layer in this process: a HEIC made with
/// libheif's `heif-enc` from a generated JPEG, catalogued by the built binary, selected into
/// an app with `--representation compatible`. The layer names it `.jpg`, gives `stat` the
/// made JPEG's size, reads that JPEG through `LibraryFileReader` from the cache of a real
/// `CompatibleRepresentations` (decoder processes of the built binary), and refuses a read
/// once the grant is revoked; a layer with no provider answers EIO rather than show a file
/// it cannot read.
@Suite(
    "compatible representation: in-process view layer", .serialized,
    .enabled(if: Skip.unless(BehaviourLibrary.binary != nil, "the photofs binary that makes the sample library is not built (swift build)"))
)
struct CompatibleInProcessTests {
    @Test func aCompatibleAppReadsTheMadeJPEGUntilRevoked() throws {
        guard
            let encoder = ["/usr/bin/heif-enc", "/usr/local/bin/heif-enc"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }
            )
        else {
            try Skip.because("skipping the in-process compatible test: heif-enc (libheif-examples) is not installed")
        }
        let photofs = try #require(BehaviourLibrary.binary)
        let library = try BehaviourLibrary(root: InProcessBehaviourTests.root, count: 4)
        defer { library.remove() }
        let jpeg = try #require(library.assets.first { $0.path.hasSuffix(".jpg") })
        let heic = library.library + "/q.heic"
        let encoded = try ExternalTools.run(encoder, ["-q", "90", "-o", heic, library.library + "/" + jpeg.path])
        try #require(encoded.status == 0, "heif-enc: \(encoded.stderr)")
        let indexed = try ExternalTools.run(photofs, ["index", "--quiet", "--catalog", library.catalog, library.library])
        try #require(indexed.status == 0, "photofs index: \(indexed.stderr)")
        let listed = try ExternalTools.run(photofs, ["ls", "--json", "--catalog", library.catalog])
        let objects = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] ?? []
        let id = try #require(
            objects.first { $0["path"] as? String == "q.heic" }?["id"] as? String,
            "q.heic is not catalogued: \(listed.stdout)\(listed.stderr)")

        let setup = try InProcessSetup(catalog: library.catalog, library: library.library)
        let pool = DecoderPool(executable: photofs, size: 1, timeLimit: 120)
        defer { pool.shutdown() }
        let provider = CompatibleRepresentations(cache: CompatibleCache(root: library.base + "/cache"), pool: pool)
        let layer = setup.layer(representations: provider)
        let client = InProcessClient(layer: layer, uid: getuid())
        #expect(client.writePicker("app add web --representation compatible --location strip\nselect web \(id)\n") == 0)

        #expect(try client.list("apps/web").get() == ["q.jpg"])
        let size = try client.stat("apps/web/q.jpg").get()
        let served = try client.read("apps/web/q.jpg").get()
        #expect(Int64(served.count) == size)
        #expect(served.starts(with: [0xFF, 0xD8, 0xFF]), "the compatible file is not a JPEG")
        #expect(served != Array(try Data(contentsOf: URL(fileURLWithPath: heic))))
        #expect(client.stat("apps/web/q.heic").errnoCode == ENOENT)

        // Without a provider the name is refused (EIO), not shown with a size no read matches.
        let bare = InProcessClient(
            layer: setup.layer(),
            uid: getuid())
        #expect(bare.stat("apps/web/q.jpg").errnoCode == EIO)

        let handle = try client.open("apps/web/q.jpg").get()
        #expect(client.writePicker("deselect web \(id)\n") == 0)
        #expect(client.read(handle: handle).errnoCode == EACCES)
        #expect(client.stat("apps/web/q.jpg").errnoCode == ENOENT)
    }
}
