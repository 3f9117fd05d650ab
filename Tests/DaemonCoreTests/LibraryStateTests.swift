import CatalogTestSupport
import PhotoCore
import SystemKit
import Testing

@testable import DaemonCore
@testable import PhotoCatalog

/// The one owner of the live state: after every picker write and every reload, its kept
/// `.picker` rendering and its views are what a fresh render and a full build of the same
/// snapshot give.
@Suite("LibraryState owner")
struct LibraryStateTests {
    static func listing(_ tree: ViewTree) -> [String] {
        var lines: [String] = []
        var pending: [(UInt64, String)] = [(ViewInode.root, "")]
        while let (directory, path) = pending.popLast() {
            for child in tree.children(of: directory) {
                let name = path + "/" + String(decoding: child.name, as: UTF8.self)
                lines.append("\(name) \(child.inode)")
                if child.isDirectory { pending.append((child.inode, name)) }
            }
        }
        return lines.sorted()
    }

    func check(_ state: LibraryState) {
        let current = state.current
        #expect(state.render() == PickerRenderer.render(AccessState(current.snapshot), assets: current.assets))
        let full = ViewTree.build(snapshot: current.snapshot, previous: state.views, filters: FilterLanguageResolver())
        #expect(Self.listing(state.views) == Self.listing(full))
        #expect(state.views.changes(to: full).isEmpty)
    }

    @Test func keptRenderingAndViewsMatchAFreshOneAfterWritesAndReloads() throws {
        let library = try TestLibrary(photos: ["a/one.jpg": "1", "a/two.jpg": "2", "b/three.jpg": "3"])
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        try state.load()
        check(state)
        let ids = state.current.snapshot.assets.map(\.id.rawValue).sorted()
        for write in [
            "app add e --location keep\napp add f\n", "select e \(ids[0]) \(ids[1])\n", "select f \(ids[2])\n",
            "deselect e \(ids[0])\n", "app set f --filter 'type:video'\n",
        ] {
            let outcome = try state.execute(write: Array(write.utf8), now: 1)
            #expect(!outcome.forget.isEmpty)
            check(state)
        }
        try library.writePhoto("b/four.jpg", comment: "4")
        let summary = try library.indexer.run()
        try state.reload(changed: summary.changedIDs)
        check(state)
        #expect(state.render().contains("select e \(ids[1])"))
        #expect(state.views.resolve(Array("library/folders/b/four.jpg".utf8)) != nil)
    }

    /// `.picker` blocks are re-rendered line by line (a grant's line is kept while its grant,
    /// the app and the assets are the same) and app views patched: after appends, deselects
    /// in the middle, a reorder, new terms, a filter change, rules and exclusions, the text
    /// and the views are still those made from scratch.
    @Test func lineByLineRenderingAndPatchedViewsMatchFreshOnes() throws {
        var photos: [String: String] = [:]
        for n in 0..<8 { photos["p/\(n).jpg"] = "\(n)" }
        let library = try TestLibrary(photos: photos)
        let state = LibraryState(serving: library.catalog, filters: FilterLanguageResolver())
        try state.load()
        let ids = state.current.snapshot.assets.map(\.id.rawValue).sorted()
        for write in [
            "app add e --location keep\napp add g --location keep --grants-expire 7d\n",
            "select e \(ids[0]) \(ids[1]) \(ids[2]) \(ids[3])\n",
            "select e \(ids[4])\n", "deselect e \(ids[1])\n", "select e \(ids[1])\n", "select e \(ids[2]) --for 1h\n",
            "select g \(ids[0]) \(ids[5])\n", "app set e --filter 'type:video'\n", "app set e --filter ''\n",
            "deselect e \(ids[0]) \(ids[4])\nselect e \(ids[6])\n", "select e --rule 'type:image'\n", "deselect e \(ids[3])\n",
            "deselect e --rule 'type:image'\n", "select e \(ids[7]) \(ids[0])\n", "clear e\n", "select e \(ids[5])\n",
        ] {
            let before = state.render()
            _ = try state.execute(write: Array(write.utf8), now: SystemClock.wallNanoseconds())
            #expect(state.render() != before, "\(write)")
            check(state)
        }
        #expect(state.render().contains("# e: 1 selected, 1 visible\n"))
    }
}
