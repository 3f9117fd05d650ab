import MediaFormats
import PhotoCore
import Testing

/// An app's `--metadata` policy in the view tree: a file whose private plan is withheld is
/// not listed to a private app, and switching the policy invalidates the files the app
/// keeps, so the kernel cannot serve pages cached under the other policy.
@Suite("ViewTree metadata policy")
struct ViewTreeMetadataPolicyTests {
    func inode(_ tree: ViewTree, _ path: String) -> UInt64? { tree.resolve(Array(path.utf8))?.inode }

    @Test func switchingToPrivateInvalidatesKeptFilesAndDropsWithheldOnes() throws {
        let planned = ViewFixtures.asset(
            "a1", "p/one.jpg", taken: ViewFixtures.date(2024, 1, 1),
            redaction: RedactionPlans(
                strip: .identity, coarse: .identity,
                privatePlans: PrivatePlans(keep: .patches([Patch(offset: 2, bytes: [0])]), strip: .identity, coarse: .identity)))
        let unplanned = ViewFixtures.asset("a2", "p/two.jpg", taken: ViewFixtures.date(2024, 1, 2))
        let assets = [planned, unplanned]
        let grants = ["e": assets.enumerated().map { Grant(asset: $1.id, grantedAtNanoseconds: Int64($0)) }]
        let keep = ["e": App(name: "e", locationPolicy: .keep)]
        let before = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: keep, grants: grants))
        let one = try #require(inode(before, "apps/e/one.jpg"))
        #expect(inode(before, "apps/e/two.jpg") != nil)

        let privateApps = ["e": App(name: "e", locationPolicy: .keep, metadataPolicy: .private)]
        let after = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: privateApps, grants: grants), previous: before)
        #expect(inode(after, "apps/e/one.jpg") == one)
        #expect(inode(after, "apps/e/two.jpg") == nil, "a file without private plans reaches a private app")
        let changes = before.changes(to: after)
        #expect(changes.invalidatedInodes.contains(one), "pages cached under --metadata keep stay valid for the private app")
        #expect(changes.removedEntries.contains { $0.name == Array("two.jpg".utf8) })

        // Back to keep: invalidated again; an unchanged private app needs nothing.
        let back = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: keep, grants: grants), previous: after)
        #expect(after.changes(to: back).invalidatedInodes.contains(one))
        let same = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: privateApps, grants: grants), previous: after)
        #expect(!after.changes(to: same).invalidatedInodes.contains(one))
    }
}
