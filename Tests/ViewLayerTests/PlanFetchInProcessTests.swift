import Foundation
import FuseKit
import Glibc
import PhotoCore
import TestSupport
import Testing

@testable import PhotoCatalog

/// The read path fetches each file's redaction plan from the catalog when it reads it (the
/// views keep none): a plan the catalog cannot give fails the read with EIO, and the
/// original bytes are never served in its place.
@Suite(
    "plans on demand: in-process view layer", .serialized,
    .enabled(if: Skip.unless(BehaviourLibrary.binary != nil, "the photofs binary that makes the sample library is not built (swift build)"))
)
struct PlanFetchInProcessTests {
    @Test func anUnreadablePlanFailsTheReadClosed() throws {
        let library = try BehaviourLibrary(root: InProcessBehaviourTests.root)
        defer { library.remove() }
        let located = try #require(
            library.located.first { member in library.uniquelyNamed.contains { $0.id == member.id } },
            "the sample library has no uniquely named located photo")
        // A coarse plan that promises a patch and ends: its first byte still says "not
        // withheld", so the file is listed; only its read can find out. Its strip plan is intact.
        let db = try Database(path: library.catalog)
        let update = try db.statement("UPDATE asset_plans SET plan = ?1 WHERE kind = 1 AND id = ?2")
        try update.bind(1, [0, 1])
        try update.bind(2, located.id)
        try update.run()

        let setup = try InProcessSetup(catalog: library.catalog, library: library.library)
        let client = InProcessClient(layer: setup.layer(), uid: getuid())
        let original = library.original(located)
        #expect(client.writePicker("app add c --location coarse\napp add s --location strip\napp add k --location keep\n") == 0)
        #expect(client.writePicker("select c \(located.id)\nselect s \(located.id)\nselect k \(located.id)\n") == 0)
        #expect(try client.stat("apps/c/" + located.basename).get() == Int64(original.count))
        #expect(client.read("apps/c/" + located.basename).errnoCode == EIO)
        // The same file under its intact strip plan is served: no location, same size.
        let served = try client.read("apps/s/" + located.basename).get()
        #expect(served.count == original.count)
        #expect(served != original)
        #expect(!LocationCheck.hasLocation(served), "the strip view of \(located.path) holds a location")
        // A view that keeps location needs no plan: the original.
        #expect(try client.read("apps/k/" + located.basename).get() == original)
        // Asked again (the failed fetch was not cached), still refused.
        #expect(client.read("apps/c/" + located.basename).errnoCode == EIO)
    }
}
