import MediaFormats
import Testing

@testable import PhotoCore

/// A select is decided by the one visibility rule (`AppVisibility`): an asset the app could
/// never be shown (withheld under its location policy or its `--metadata private`) is
/// refused like one outside its filter, and never counts toward its limit.
@Suite("Picker selects what the app may see")
struct PickerVisibilityTests {
    static let withheld = RedactionPlans(strip: .withheld(reason: "unreadable XMP"), coarse: .withheld(reason: "unreadable XMP"))

    /// A and B: plain photos; C: withheld under strip and coarse; D: no private plan.
    static let assets = [
        ViewFixtures.asset("a", "a.jpg", taken: ViewFixtures.date(2024, 1, 1)),
        ViewFixtures.asset("b", "b.jpg", taken: ViewFixtures.date(2024, 1, 2)),
        ViewFixtures.asset("c", "c.jpg", taken: ViewFixtures.date(2024, 1, 3), redaction: withheld),
        ViewFixtures.asset("d", "d.jpg", taken: ViewFixtures.date(2024, 1, 4)),
    ]
    static let index = AssetIndex(assets)

    static func run(_ script: String, on state: AccessState = AccessState()) throws(PickerError) -> AccessState {
        try PickerExecutor.apply(write: Array(script.utf8), to: state, assets: index, now: 1).0
    }

    static func selected(_ state: AccessState, _ app: String) -> [String] {
        (state.grants[app] ?? []).map { String($0.asset.rawValue.last!) }
    }

    @Test func aWithheldAssetIsRefusedAndLeavesRoomInTheLimit() throws {
        let base = try Self.run("app add editor --location strip --limit 2\nselect editor 00000000000a")
        #expect(throws: PickerError.notServable(app: "editor", asset: AssetID("00000000000c")!, why: .withheld, line: 1)) {
            _ = try Self.run("select editor 00000000000c", on: base)
        }
        let error = PickerError.notServable(app: "editor", asset: AssetID("00000000000c")!, why: .withheld, line: 1)
        #expect(error.errnoKind == .notPermitted)
        #expect(
            error.reason
                == "line 1: asset 00000000000c cannot be served to app 'editor' under its --location policy (its location could not be read with certainty), so the app could not see it"
        )
        // The limit still has room for what the app can see.
        #expect(Self.selected(try Self.run("select editor 00000000000b", on: base), "editor") == ["a", "b"])
        // An app that keeps locations is served the original bytes: nothing is withheld.
        let keeper = try Self.run("app add keeper --location keep\nselect keeper 00000000000c")
        #expect(Self.selected(keeper, "keeper") == ["c"])
    }

    @Test func aPrivateAppRefusesWhatCannotBeBlanked() throws {
        // D has no private plan (catalogued before the policy existed).
        let script = "app add private --location keep --metadata private\nselect private 00000000000d"
        #expect(throws: PickerError.notServable(app: "private", asset: AssetID("00000000000d")!, why: .withheldPrivate, line: 2)) {
            _ = try Self.run(script)
        }
        #expect(
            PickerError.notServable(app: "private", asset: AssetID("00000000000d")!, why: .withheldPrivate, line: 2).reason
                == "line 2: asset 00000000000d cannot be blanked in place for app 'private' (--metadata private), so the app could not see it"
        )
    }

    /// `select --where` takes only what the app would be shown: the withheld C neither joins
    /// nor counts toward the limit of 3 (A, B, D fit; with C it would be 4).
    @Test func selectWhereSkipsWithheldAssets() throws {
        let state = try Self.run("app add editor --location strip --limit 3\nselect editor --where 'taken:2024'")
        #expect(Self.selected(state, "editor") == ["a", "b", "d"])
        #expect(state.visibleAssets(of: "editor", in: Self.index, at: 1).count == 3)
        let keeper = try Self.run("app add keeper --location keep --limit 4\nselect keeper --where 'taken:2024'")
        #expect(Self.selected(keeper, "keeper") == ["a", "b", "c", "d"])
    }
}
