import Glibc
import Testing

/// The behaviour suite's cases, each written once against `ViewClient` and run by both
/// targets (`InProcessBehaviourTests`, `KernelBehaviourTests`). Each case adds its own
/// app through `.picker`, so the cases do not depend on one another.
///
/// Shared scenarios: 31 (every `public static func` of this type and its extensions, in
/// `ViewBehaviour+Names`, `+Picker`, `+Requests`, `+More`, listed once in `shared`
/// (`ViewBehaviour+Scenarios`); each target runs the list through one parameterized test,
/// a test case per scenario). Run by one target only, and why:
/// - in process only (`Tests/ViewLayerTests`): `aBoundUIDSeesOnlyItsApp`, calls as other
///   uids and a stranger's EACCES, which the kernel target (one process, as root) cannot
///   make (`CallerErrnoTests`, `UIDBindingTests` do it through the kernel with a second
///   process); `privateViewServesTheStoredPrivatePlan`, compared with the catalog's stored
///   plans, which only the in-process setup opens; `CompatibleInProcessTests` (made JPEGs:
///   the in-process setup injects the decoder, the test daemon has none);
///   `PlanFetchInProcessTests` (a plan source that fails on purpose, injected);
///   `RequestFilesInProcessTests` (request times given as numbers).
/// - through the kernel only (`Tests/PhotoFSTests`): what exists only there. The page
///   cache and invalidations (`RevocationTests`, `DirectoryCacheTests`), `.picker`'s
///   rendering inodes and one WRITE per `write(2)` (`SpecialFileTests`,
///   `PickerConcurrencyTests`), EINTR when a waiting `.request` read is interrupted, the
///   pending size reported so that the kernel sends the READ, and withdrawal at the last
///   close (`RequestFileTests`, `RequestChannelTests`: deferred replies and descriptor
///   counts are the adapter's).
/// Not covered by either: names with newlines or bytes that are not UTF-8 (the sample
/// library has none; a name with a space and colliding basenames are covered).
public enum ViewBehaviour {
    /// Not granted means not there: lookup, stat, listing and read of an asset the app
    /// was not granted answer ENOENT (or do not list it), as does an app that does not exist.
    public static func notGrantedIsNotThere(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let named = library.uniquelyNamed
        try #require(named.count >= 2, "the sample library has too few uniquely named assets")
        let (granted, other) = (named[0], named[1])
        #expect(client.writePicker("app add hidden --location keep\nselect hidden \(granted.id)\n") == 0)
        #expect(try client.list("apps/hidden").get() == [granted.basename])
        #expect(client.stat("apps/hidden/" + granted.basename).errnoCode == 0)
        #expect(client.stat("apps/hidden/" + other.basename).errnoCode == ENOENT)
        #expect(client.read("apps/hidden/" + other.basename).errnoCode == ENOENT)
        #expect(client.open("apps/hidden/" + other.basename).errnoCode == ENOENT)
        #expect(client.stat("apps/nobody").errnoCode == ENOENT)
        #expect(client.list("apps/nobody").errnoCode == ENOENT)
        #expect(client.read("apps/nobody/" + granted.basename).errnoCode == ENOENT)
    }

    /// A revocation drops access for a descriptor opened before it (EACCES) and the name
    /// (ENOENT); selecting the asset again lets the same descriptor read again.
    public static func revocationDropsAnOpenDescriptor(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let asset = try #require(library.uniquelyNamed.first)
        let path = "apps/revoked/" + asset.basename
        #expect(client.writePicker("app add revoked --location keep\nselect revoked \(asset.id)\n") == 0)
        let handle = try client.open(path).get()
        defer { client.close(handle: handle) }
        let readBefore = try client.read(handle: handle).get() == library.original(asset)
        #expect(readBefore, "the open descriptor did not read the original")
        #expect(client.writePicker("deselect revoked \(asset.id)\n") == 0)
        #expect(client.read(handle: handle).errnoCode == EACCES)
        #expect(client.stat(path).errnoCode == ENOENT)
        #expect(client.list("apps/revoked").map(\.isEmpty) == .success(true))
        #expect(client.writePicker("select revoked \(asset.id)\n") == 0)
        let readAgain = try client.read(handle: handle).get() == library.original(asset)
        #expect(readAgain, "the descriptor did not read again after the asset was selected again")
    }

    /// The strip view of a located photo serves the same size with no location left
    /// (`hasLocation` reads it as an independent reader would); keep serves the original.
    public static func stripViewHasNoLocation(
        _ client: ViewClient, _ library: BehaviourLibrary, hasLocation: ([UInt8]) -> Bool
    ) throws {
        let named = Set(library.uniquelyNamed.map(\.id))
        let asset = try #require(library.located.first { named.contains($0.id) }, "the sample library has no located photo")
        let original = library.original(asset)
        #expect(hasLocation(original), "the original of \(asset.path) should hold a location")
        #expect(client.writePicker("app add stripped --location strip\nselect stripped \(asset.id)\n") == 0)
        #expect(client.writePicker("app add kept --location keep\nselect kept \(asset.id)\n") == 0)
        let stripped = try client.read("apps/stripped/" + asset.basename).get()
        #expect(stripped.count == original.count)
        #expect(try client.stat("apps/stripped/" + asset.basename).get() == Int64(original.count))
        // Compared as values, not printed: the original's bytes hold a coordinate.
        let patched = stripped != original
        #expect(patched, "the strip view of \(asset.path) is the original file")
        #expect(!hasLocation(stripped), "the strip view of \(asset.path) holds a location")
        let kept = try client.read("apps/kept/" + asset.basename).get() == original
        #expect(kept, "the keep view of \(asset.path) is not the original file")
    }

    /// One picker write selects its assets in the order written: the view lists them so.
    public static func pickerWriteSelectsInOrder(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let named = library.uniquelyNamed
        try #require(named.count >= 4)
        let order = [named[3], named[0], named[2]]
        #expect(client.writePicker("app add ordered --location keep\nselect ordered \(order.map(\.id).joined(separator: " "))\n") == 0)
        #expect(try client.list("apps/ordered").get() == order.map(\.basename))
        // A deselect and select again moves an asset to the end.
        #expect(client.writePicker("deselect ordered \(order[0].id)\nselect ordered \(order[0].id)\n") == 0)
        #expect(try client.list("apps/ordered").get() == [order[1], order[2], order[0]].map(\.basename))
    }

    /// A write that would take an app past its limit is refused whole with EDQUOT.
    public static func limitIsEDQUOT(_ client: ViewClient, _ library: BehaviourLibrary) throws {
        let named = library.uniquelyNamed
        try #require(named.count >= 3)
        #expect(client.writePicker("app add limited --location keep --limit 2\nselect limited \(named[0].id)\n") == 0)
        #expect(client.writePicker("select limited \(named[1].id) \(named[2].id)\n") == EDQUOT)
        #expect(try client.list("apps/limited").get() == [named[0].basename])
        #expect(client.writePicker("select limited \(named[1].id)\n") == 0)
        #expect(client.writePicker("select limited \(named[2].id)\n") == EDQUOT)
        #expect(try client.list("apps/limited").get() == [named[0].basename, named[1].basename])
    }
}
