import Testing

@testable import PhotoCore

@Suite struct PickerRendererTests {
    @Test func rendersEachAppWithItsSelection() throws {
        var state = try PickerExecutorTests.base()
        // A grant the editor's filter hides (A has a location) and one whose asset is gone.
        state.grants["editor"]?.append(Grant(asset: SampleAssets.id("A"), grantedAtNanoseconds: 2))
        state.grants["editor"]?.append(Grant(asset: AssetID("abcdefabcdef")!, grantedAtNanoseconds: 3))
        let text = PickerRenderer.render(state, assets: PickerExecutorTests.index)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains("# 2 apps"))
        #expect(lines.contains("# editor: 4 selected, 2 visible"))
        #expect(lines.contains("app add editor --filter 'type:image -has:location' --location strip --limit 3 --uid 1001"))
        #expect(lines.contains("select editor 000000000044  # Screens/Screenshot 2024-03-02.png"))
        #expect(lines.contains("select editor 000000000045  # Pano/PANO_0001.jpg"))
        #expect(lines.contains("# select editor 000000000041  # hidden: Trips/2024/IMG_0001.JPG does not pass the filter"))
        #expect(lines.contains("# select editor abcdefabcdef  # missing: no longer in the library"))
        #expect(lines.contains("app add viewer --location keep"))
        #expect(lines.contains("select viewer 000000000041  # Trips/2024/IMG_0001.JPG"))
        // Selection order is kept: D before E before the hidden A.
        let d = try #require(lines.firstIndex { $0.hasPrefix("select editor 000000000044") })
        let e = try #require(lines.firstIndex { $0.hasPrefix("select editor 000000000045") })
        let a = try #require(lines.firstIndex { $0.hasPrefix("# select editor 000000000041") })
        #expect(d < e && e < a)
        #expect(!text.contains("viewer=") && !text.contains("latitude"))
    }

    @Test func renderedTextReplaysOntoAnEmptyState() throws {
        var state = try PickerExecutorTests.base()
        state.apps["odd"] = App(
            name: "odd", filter: "model:\"it's\" OR name:'a b' OR type:video", locationPolicy: .coarse, selectionLimit: 0, uid: nil)
        state.grants["odd"] = [Grant(asset: SampleAssets.id("C"), grantedAtNanoseconds: 1)]
        state.grants["editor"]?.append(Grant(asset: SampleAssets.id("A"), grantedAtNanoseconds: 2))
        let text = PickerRenderer.render(state, assets: PickerExecutorTests.index)
        let (replayed, _) = try PickerExecutor.apply(
            try PickerCommandParser.parse(text), to: AccessState(), assets: PickerExecutorTests.index, now: 1)
        #expect(replayed.apps == state.apps)
        // Everything visible comes back in order; the hidden grant of A was a comment.
        #expect(PickerExecutorTests.summary(replayed) == "editor=DE odd=C viewer=A")
    }

    @Test func pathsAreShownOnOneLine() {
        let asset = SampleAssets.asset("A", "x", .jpeg, size: 1)
        var weird = asset
        weird.path = LibraryPath(bytes: Array("a\nb\\".utf8) + [0xFF] + Array("é.jpg".utf8))
        let state = AccessState(apps: ["v": App(name: "v")], grants: ["v": [Grant(asset: asset.id, grantedAtNanoseconds: 1)]])
        let text = PickerRenderer.render(state, assets: AssetIndex([weird]))
        #expect(text.contains("select v 000000000041  # a\\x0ab\\\\\\xffé.jpg\n"))
    }
}
