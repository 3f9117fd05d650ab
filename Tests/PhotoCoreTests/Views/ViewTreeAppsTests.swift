import MediaFormats
import PhotoCore
import Testing

@Suite("ViewTree app views and access")
struct ViewTreeAppsTests {
    static let withheld = RedactionPlans(strip: .withheld(reason: "unparsable"), coarse: .withheld(reason: "unparsable"))
    let assets = [
        ViewFixtures.asset("a1", "p/one.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        ViewFixtures.asset("a2", "p/two.jpg", taken: ViewFixtures.date(2024, 1, 2)),
        ViewFixtures.asset("a3", "p/three.jpg", taken: ViewFixtures.date(2024, 1, 3), redaction: ViewTreeAppsTests.withheld),
        ViewFixtures.asset("a4", "q/one.jpg", taken: ViewFixtures.date(2024, 1, 4)),
    ]

    func grants(_ ids: [String]) -> [Grant] {
        ids.enumerated().map { Grant(asset: AssetID("0000000000" + $0.element)!, grantedAtNanoseconds: Int64($0.offset)) }
    }

    @Test func appViewListsGrantedExistingAssetsInSelectionOrder() {
        let snapshot = LibrarySnapshot(
            assets: assets, apps: ["editor": App(name: "editor", locationPolicy: .keep)],
            grants: ["editor": grants(["a4", "a2", "ff", "a1", "a2"])])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "apps") == ["editor"])
        // ff does not exist, the second a2 is a duplicate; a4 and a1 share a base name, a4 was selected first.
        #expect(ViewFixtures.names(tree, "apps/editor") == ["one.jpg", "two.jpg", "one~0000.jpg"])
    }

    @Test func strippingAppNeverShowsWithheldAssets() {
        let snapshot = LibrarySnapshot(
            assets: assets, apps: ["strip": App(name: "strip"), "keep": App(name: "keep", locationPolicy: .keep)],
            grants: ["strip": grants(["a3", "a1"]), "keep": grants(["a3"])])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "apps/strip") == ["one.jpg"])
        #expect(ViewFixtures.names(tree, "apps/keep") == ["three.jpg"])
    }

    @Test func unevaluableFilterFailsClosed() {
        let snapshot = LibrarySnapshot(
            assets: assets, apps: ["picky": App(name: "picky", filter: "type:image", locationPolicy: .keep)],
            grants: ["picky": grants(["a1"])])
        let tree = ViewFixtures.build(snapshot)
        #expect(ViewFixtures.names(tree, "apps/picky") == [])
    }

    @Test func injectedFilterDecides() {
        struct OnlyFolderQ: AppFilterResolving {
            func predicate(for app: App) -> (@Sendable (Asset) -> Bool)? { { $0.path.folder == LibraryPath("q") } }
        }
        let snapshot = LibrarySnapshot(
            assets: assets, apps: ["q": App(name: "q", filter: "folder:q", locationPolicy: .keep)], grants: ["q": grants(["a1", "a4"])])
        let tree = ViewTree.build(snapshot: snapshot, filters: OnlyFolderQ())
        #expect(ViewFixtures.names(tree, "apps/q") == ["one.jpg"])
        #expect(tree.asset(of: tree.resolve(Array("apps/q/one.jpg".utf8))!)?.id.rawValue == "0000000000a4")
    }

    @Test func boundUIDSeesOnlyItsViewOwnerSeesAllStrangerNothing() throws {
        let snapshot = LibrarySnapshot(
            assets: assets,
            apps: ["a": App(name: "a", locationPolicy: .keep, uid: 1001), "b": App(name: "b", locationPolicy: .keep, uid: 1002)],
            grants: ["a": grants(["a1"]), "b": grants(["a2"])])
        let tree = ViewFixtures.build(snapshot)
        let bound = tree.caller(uid: 1001, mountOwner: 1000)
        #expect(bound == .apps(["a"]))
        #expect(tree.caller(uid: 1000, mountOwner: 1000) == .owner)
        #expect(tree.caller(uid: 0, mountOwner: 1000) == .owner)
        #expect(tree.caller(uid: 4242, mountOwner: 1000) == .stranger)
        let visible = { (path: String) throws -> Bool in tree.isVisible(try #require(tree.resolve(Array(path.utf8))), to: bound) }
        #expect(try visible(""))
        #expect(try visible("apps"))
        #expect(try visible("apps/a"))
        #expect(try visible("apps/a/one.jpg"))
        #expect(try !visible("apps/b"))
        #expect(try !visible("apps/b/two.jpg"))
        #expect(try !visible("library"))
        #expect(try !visible("library/all/one.jpg"))
        #expect(try !visible(".picker"))
        #expect(try !tree.isVisible(#require(tree.resolve([])), to: .stranger))
        #expect(tree.boundUID(of: try #require(tree.resolve(Array("apps/b/two.jpg".utf8)))) == 1002)
    }
}
