import MediaFormats
import PhotoCore
import Testing

/// The one visibility rule decides the view tree, `.picker`'s rendering and
/// `AccessState.visibleAssets` (which `photofs app list/show` print) alike.
@Suite("App visibility")
struct AppVisibilityTests {
    static let withheld = RedactionPlans(strip: .withheld(reason: "unreadable XMP"), coarse: .withheld(reason: "unreadable XMP"))

    /// A: visible; B: a video, filtered out by `type:image` (set after it was selected);
    /// C: withheld under strip;
    /// D: granted, then deleted from the library; E: deselected and selected again (last).
    static func library() throws -> (LibrarySnapshot, AccessState) {
        var video = ViewFixtures.asset("b", "b.mp4")
        video.metadata.format = .mp4
        let assets = [
            ViewFixtures.asset("a", "a.jpg"), video, ViewFixtures.asset("c", "c.jpg", redaction: withheld),
            ViewFixtures.asset("d", "d.jpg"), ViewFixtures.asset("e", "e.jpg"),
        ]
        let index = AssetIndex(assets)
        var state = AccessState()
        let writes = [
            // C is selected while the app keeps locations: a select of what the app could not
            // be served is refused (it would use up the limit for nothing).
            "app add editor --location keep\nselect editor 00000000000e 00000000000a 00000000000b 00000000000c 00000000000d",
            // A filter or policy change keeps the grants it hides.
            "app set editor --filter 'type:image' --location strip",
            "app add keeper --location keep\nselect keeper 00000000000c 00000000000a",
            "deselect editor 00000000000e",
            "select editor 00000000000e",
        ]
        for write in writes {
            (state, _) = try PickerExecutor.apply(write: Array(write.utf8), to: state, assets: index, now: 1)
        }
        var snapshot = LibrarySnapshot()
        snapshot.assets = ChunkedArray(assets.filter { $0.id.rawValue != "00000000000d" })
        snapshot.apps = state.apps
        snapshot.grants = state.grants
        return (snapshot, state)
    }

    static func letters(_ ids: [AssetID]) -> [String] { ids.map { String($0.rawValue.last!) } }

    @Test func everyPlaceAgrees() throws {
        let (snapshot, state) = try Self.library()
        let index = AssetIndex(snapshot.assets)
        let tree = ViewTree.build(snapshot: snapshot, filters: FilterLanguageResolver())
        let text = PickerRenderer.render(state, assets: index)
        let expected = ["editor": ["a", "e"], "keeper": ["c", "a"]]
        for (name, letters) in expected {
            let directory = try #require(tree.resolve(Array("apps/\(name)".utf8)))
            let inTree = tree.children(of: directory.inode).compactMap { tree.asset(of: $0)?.id }
            #expect(Self.letters(inTree) == letters, "view tree of \(name)")
            #expect(Self.letters(state.visibleAssets(of: name, in: index).map(\.id)) == letters, "visibleAssets of \(name)")
            let selected = text.split(separator: "\n").filter { $0.hasPrefix("select \(name) ") }
            #expect(Self.letters(selected.compactMap { AssetID(String($0.split(separator: " ")[2])) }) == letters, "picker of \(name)")
            #expect(text.contains("# \(name): \(state.grants[name]?.count ?? 0) selected, \(letters.count) visible\n"))
        }
        // Each hidden grant says why, in the same words the rule gives.
        #expect(text.contains("# select editor 00000000000b  # hidden: b.mp4 does not pass the filter"))
        #expect(text.contains("# select editor 00000000000c  # withheld: c.jpg cannot be served under --location strip"))
        #expect(text.contains("# select editor 00000000000d  # missing: no longer in the library"))
    }

    @Test func classifiesEachReason() throws {
        let (snapshot, state) = try Self.library()
        let index = AssetIndex(snapshot.assets)
        let editor = AppVisibility(try #require(state.apps["editor"]))
        let reasons = state.members(of: "editor", in: index, at: 1).map { editor.classify(index[$0]) }
        #expect(reasons == [.visible, .filteredOut, .withheld, .missing, .visible])
        // keep serves the original bytes, so nothing is withheld there.
        #expect(AppVisibility(try #require(state.apps["keeper"])).classify(index[AssetID("00000000000c")!]) == .visible)
    }

    /// Under `--metadata private` the private plan decides, for every location policy:
    /// no private plan (catalogued before the policy) or a withheld one hides the asset with
    /// its own reason, in the view tree, `.picker` and `visibleAssets` alike; the plain
    /// location plan no longer matters.
    @Test func aPrivateAppIsDecidedByThePrivatePlan() throws {
        var plans = Self.withheld
        plans.privatePlans = PrivatePlans(keep: .identity, strip: .patches([Patch(offset: 2, bytes: [0])]), coarse: .identity)
        let planned = ViewFixtures.asset("a", "a.jpg", redaction: plans)
        let unplanned = ViewFixtures.asset("b", "b.jpg")
        let refused = ViewFixtures.asset(
            "c", "c.jpg",
            redaction: RedactionPlans(
                strip: .identity, coarse: .identity,
                privatePlans: PrivatePlans(keep: .identity, strip: .withheld(reason: "maker note"), coarse: .identity)))
        let assets = [planned, unplanned, refused]
        let index = AssetIndex(assets)
        var state = AccessState()
        (state, _) = try PickerExecutor.apply(
            write: Array(
                ("app add private --location keep\nselect private 00000000000a 00000000000b 00000000000c\n"
                    + "app set private --location strip --metadata private\n").utf8), to: state,
            assets: index, now: 1)
        let app = try #require(state.apps["private"])
        #expect(app.metadataPolicy == .private && app.locationPolicy == .strip)
        #expect(assets.map { AppVisibility(app).classify($0) } == [.visible, .withheldPrivate, .withheldPrivate])
        var kept = app
        kept.locationPolicy = .keep
        #expect(assets.map { AppVisibility(kept).classify($0) } == [.visible, .withheldPrivate, .visible])
        var plain = app
        plain.metadataPolicy = .keep
        #expect(assets.map { AppVisibility(plain).classify($0) } == [.withheld, .visible, .visible])

        #expect(Self.letters(state.visibleAssets(of: "private", in: index).map(\.id)) == ["a"])
        let text = PickerRenderer.render(state, assets: index)
        #expect(text.contains("app add private --location strip --metadata private\n" + PickerRenderer.privateMetadataNote + "\n"))
        #expect(text.contains("# select private 00000000000b  # withheld: b.jpg cannot be blanked in place under --metadata private"))
        #expect(text.contains("# select private 00000000000c  # withheld: c.jpg cannot be blanked in place under --metadata private"))
        #expect(text.contains("# private: 3 selected, 1 visible\n"))
        var snapshot = LibrarySnapshot()
        snapshot.assets = ChunkedArray(assets)
        snapshot.apps = state.apps
        snapshot.grants = state.grants
        let tree = ViewTree.build(snapshot: snapshot, filters: FilterLanguageResolver())
        let directory = try #require(tree.resolve(Array("apps/private".utf8)))
        #expect(Self.letters(tree.children(of: directory.inode).compactMap { tree.asset(of: $0)?.id }) == ["a"])
    }

    @Test func aFilterThatNoLongerParsesShowsNothing() {
        let app = App(name: "broken", filter: "type:", locationPolicy: .keep)
        #expect(AppVisibility(app).classify(ViewFixtures.asset("a", "a.jpg")) == .filteredOut)
    }

    @Test func membersKeepSelectionOrderOnce() {
        let grants = ["b", "a", "b"].map { Grant(asset: AssetID("00000000000" + $0)!, grantedAtNanoseconds: 1) }
        let state = AccessState(apps: ["editor": App(name: "editor")], grants: ["editor": grants])
        #expect(Self.letters(state.members(of: "editor", in: AssetIndex([Asset]()), at: 1)) == ["b", "a"])
    }

    @Test func theUIDRule() {
        #expect(AppVisibility.mayEnter("editor", caller: .owner))
        #expect(AppVisibility.mayEnter("editor", caller: .apps(["editor"])))
        #expect(!AppVisibility.mayEnter("editor", caller: .apps(["viewer"])))
        #expect(!AppVisibility.mayEnter("editor", caller: .stranger))
    }
}
