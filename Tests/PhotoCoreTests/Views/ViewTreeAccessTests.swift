import PhotoCore
import Testing
import ViewTestSupport

/// A grant or app change replaces only the changed app's part of the tree: the result must
/// be the tree a full build makes, and its change set the one a full diff finds.
@Suite("ViewTree access-only replacement")
struct ViewTreeAccessTests {
    let assets = (0..<30).map { n in
        ViewFixtures.asset(
            String(n + 0xa0, radix: 16), "f\(n % 3)/IMG_\(n % 7).jpg", taken: ViewFixtures.date(2024, 1 + n % 12, 1 + n % 28))
    }

    func grants(_ positions: [Int]) -> [Grant] {
        positions.enumerated().map { Grant(asset: assets[$0.element].id, grantedAtNanoseconds: Int64($0.offset)) }
    }

    func listing(_ tree: ViewTree) -> [String: [String]] {
        tree.listings { tree.boundUID(of: $0).map(String.init) ?? "-" }
    }

    @Test func grantRevokeFilterAndAppChangesMatchAFullBuild() throws {
        let apps = [
            "a": App(name: "a", locationPolicy: .keep), "b": App(name: "b", locationPolicy: .keep, uid: 1001),
            "c": App(name: "c", filter: "", locationPolicy: .strip),
        ]
        let start = LibrarySnapshot(assets: assets, apps: apps, grants: ["a": grants([1, 2, 8]), "b": grants([3, 10]), "c": grants([4])])
        let before = ViewFixtures.build(start)
        var steps: [LibrarySnapshot] = []
        var next = start
        next.grants["a"] = grants([1, 2, 8, 15])  // select
        steps.append(next)
        next.grants["a"] = grants([2, 15])  // deselect
        steps.append(next)
        next.apps["b"]?.uid = 1002  // rebind
        steps.append(next)
        next.apps["d"] = App(name: "d", locationPolicy: .keep)  // new app
        next.grants["d"] = grants([1, 8])
        steps.append(next)
        next.apps["c"] = nil  // app removed
        next.grants["c"] = nil
        steps.append(next)
        var tree = before
        for step in steps {
            let incremental = tree.replacingAccess(apps: step.apps, grants: step.grants, filters: EmptyFilterOnlyResolver())
            let full = ViewFixtures.build(step, previous: tree)
            #expect(listing(incremental) == listing(full))
            let (fast, slow) = (tree.changes(to: incremental), tree.changes(to: full))
            #expect(Set(fast.invalidatedInodes) == Set(slow.invalidatedInodes))
            #expect(Set(fast.removedEntries) == Set(slow.removedEntries))
            #expect(!fast.isEmpty)
            tree = incremental
        }
        // The library part is never rebuilt: its inodes and names are the same values.
        #expect(listing(tree)["/library/all"] == listing(before)["/library/all"])
        #expect(ViewFixtures.names(tree, "apps") == ["a", "b", "d"])
        #expect(tree.caller(uid: 1002, mountOwner: 0) == .apps(["b"]))
        #expect(tree.caller(uid: 1001, mountOwner: 0) == .stranger)
    }

    @Test func anUnchangedWriteNeedsNoInvalidation() {
        let apps = ["a": App(name: "a", locationPolicy: .keep)]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: ["a": grants([1, 2])]))
        let same = tree.replacingAccess(apps: apps, grants: ["a": grants([1, 2])], filters: EmptyFilterOnlyResolver())
        #expect(tree.changes(to: same).isEmpty)
    }

    @Test func anOpenListingKeepsItsOwnPartOnly() throws {
        let apps = ["a": App(name: "a", locationPolicy: .keep)]
        let tree = ViewFixtures.build(LibrarySnapshot(assets: assets, apps: apps, grants: ["a": grants([1, 2])]))
        let directory = try #require(tree.resolve(Array("apps/a".utf8)))
        let listing = try #require(tree.listing(of: directory.inode))
        let after = tree.replacingAccess(apps: apps, grants: ["a": grants([2])], filters: EmptyFilterOnlyResolver())
        #expect(listing.count == 2)
        #expect(after.childCount(of: directory.inode) == 1)
        #expect(after.listing(of: ViewInode.apps)?.child(at: 0)?.inode == directory.inode)
    }
}
