import Foundation
import FuseKit
import Glibc
import PhotoCatalog
import PhotoCore
import PhotoMetadata
import TestSupport
import Testing

/// The behaviour suite (`ViewBehaviour`) against the view layer in this process: a real
/// catalog, real library files read through `LibraryFileReader`, no kernel, no mount and
/// no root (it passes as any user who may write below the test root).
@Suite(
    "behaviour: in-process view layer", .serialized,
    .enabled(if: Skip.unless(BehaviourLibrary.binary != nil, "the photofs binary that makes the sample library is not built (swift build)"))
)
struct InProcessBehaviourTests {
    static let root: String = {
        if let root = ProcessInfo.processInfo.environment["PHOTOFS_TEST_ROOT"], root.hasPrefix("/") { return root }
        return "/tmp"
    }()

    /// Runs `body` with a client over a freshly generated and catalogued library.
    static func withClient(_ body: (InProcessClient, BehaviourLibrary) throws -> Void) throws {
        let library = try BehaviourLibrary(root: root)
        defer { library.remove() }
        let setup = try InProcessSetup(catalog: library.catalog, library: library.library)
        try body(InProcessClient(layer: setup.layer(), uid: getuid()), library)
    }

    /// Every shared scenario (`ViewBehaviour.shared`), one test case each.
    @Test(arguments: ViewBehaviour.shared)
    func scenario(_ scenario: ViewBehaviour.Scenario) throws {
        try Self.withClient { try scenario.run($0, $1, hasLocation: LocationCheck.hasLocation) }
    }

    /// Who is asking matters in process too: a uid bound to no app is refused (EACCES),
    /// one bound to an app sees only that app.
    @Test func aBoundUIDSeesOnlyItsApp() throws {
        try Self.withClient { (client, library) throws in
            let named = library.uniquelyNamed
            #expect(client.writePicker("app add mine --location keep --uid 4242\nselect mine \(named[0].id)\n") == 0)
            #expect(client.writePicker("app add theirs --location keep\nselect theirs \(named[1].id)\n") == 0)
            let bound = InProcessClient(layer: client.layer, uid: 4242)
            let stranger = InProcessClient(layer: client.layer, uid: 4343)
            #expect(try bound.list("apps").get() == ["mine"])
            let served = try bound.read("apps/mine/" + named[0].basename).get() == library.original(named[0])
            #expect(served, "the bound uid did not read its app's file")
            #expect(bound.stat("apps/theirs").errnoCode == ENOENT)
            #expect(bound.stat("library").errnoCode == ENOENT)
            #expect(bound.writePicker("select mine \(named[1].id)\n") == ENOENT)
            #expect(stranger.list("apps").errnoCode == EACCES)
        }
    }
}

/// The read path of a `--metadata private` view, in the layer: each listed file is the
/// original with the asset's stored private plan (for the app's location policy)
/// overlaid, a located photo loses its location there too, and a file whose private plan
/// withholds it is not listed.
extension InProcessBehaviourTests {
    @Test func privateViewServesTheStoredPrivatePlan() throws {
        try Self.withClient { (client, library) throws in
            let catalog = try Catalog.open(at: library.catalog)
            let named = library.uniquelyNamed
            try #require(!named.isEmpty)
            let ids = named.map(\.id).joined(separator: " ")
            #expect(client.writePicker("app add private --location strip --metadata private\nselect private \(ids)\n") == 0)
            let listed = Set(try client.list("apps/private").get())
            let located = Set(library.located.map(\.id))
            var served = 0
            var locatedServed = 0
            for member in named {
                let stored = try #require(try catalog.asset(at: LibraryPath(member.path)))
                let plans = stored.redaction.privatePlans
                var expected = library.original(member)
                let servable = plans.plan(for: .strip).apply(to: &expected, at: 0)
                #expect(listed.contains(member.basename) == servable, "\(member.path): listed \(listed.contains(member.basename))")
                guard servable else { continue }
                served += 1
                // Compared as values, not printed: the original's bytes may hold a coordinate.
                let bytes = try client.read("apps/private/" + member.basename).get()
                #expect(bytes == expected, "\(member.path) is not the original with its private plan overlaid")
                if located.contains(member.id) {
                    locatedServed += 1
                    #expect(!LocationCheck.hasLocation(bytes), "the private strip view of \(member.path) holds a location")
                }
            }
            #expect(served > 0, "no file of the sample library reaches a private app")
            #expect(locatedServed > 0, "no located photo of the sample library reaches a private app")
        }
    }
}

/// Whether a file holds a location, as the indexer reads it (libexif and the location model).
enum LocationCheck {
    static func hasLocation(_ bytes: [UInt8]) -> Bool {
        let path = InProcessBehaviourTests.root + "/photofs-location-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).jpg"
        defer { unlink(path) }
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)),
            let analysis = try? FileAnalyzer().analyze(absolutePath: Array(path.utf8))
        else { return true }
        return analysis.metadata.location != nil || !analysis.metadata.locationSources.isEmpty
    }
}
