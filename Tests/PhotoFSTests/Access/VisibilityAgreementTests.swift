import DaemonCore
import Foundation
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import Testing

/// What an app sees is decided in one place (`AppVisibility`): the daemon's views, the
/// `.picker` rendering and `photofs app list/show` (text and `--json`) agree on a real
/// catalog holding a visible, a filtered-out, a withheld, a deleted and a re-granted asset.
@Suite("visibility agreement", .serialized, .enabled(if: DaemonProcess.binaryExists))
struct VisibilityAgreementTests {
    static func record(_ letter: String, _ path: String, format: MediaFormat = .jpeg, withheld: Bool = false) -> AssetRecord {
        let id = String(repeating: "0", count: 11) + letter
        let plans =
            withheld
            ? RedactionPlans(strip: .withheld(reason: "unreadable XMP"), coarse: .withheld(reason: "unreadable XMP"))
            : RedactionPlans(strip: .identity, coarse: .identity)
        let asset = Asset(
            id: AssetID(id)!, path: LibraryPath(path), size: 10, mtimeNanoseconds: 1_700_000_000_000_000_000, inode: 1,
            metadata: MediaMetadata(format: format), redaction: plans)
        return AssetRecord(asset: asset, fingerprint: id + String(repeating: "0", count: 52), indexedAtNanoseconds: 1, redaction: plans)
    }

    static func letters(_ ids: [String]) -> [String] { ids.map { String($0.last!) } }

    @Test func viewsPickerAndAppCommandsAgree() throws {
        let directory = temporaryDirectory("photofs-agree")
        defer { run(["/bin/rm", "-rf", directory]) }
        let path = directory + "/catalog.sqlite"
        let catalog = try Catalog.open(at: path)
        try catalog.upsert([
            Self.record("a", "a.jpg"), Self.record("b", "b.mp4", format: .mp4), Self.record("c", "c.jpg", withheld: true),
            Self.record("d", "d.jpg"), Self.record("e", "e.jpg"),
        ])
        let state = LibraryState(serving: catalog, filters: FilterLanguageResolver())
        try state.load()
        for write in [
            // C is selected while the app keeps locations (a select of a withheld asset is refused).
            "app add editor --location keep\nselect editor 00000000000e 00000000000a 00000000000b 00000000000c 00000000000d",
            "app set editor --filter 'type:image' --location strip",
            "app add keeper --location keep\nselect keeper 00000000000c 00000000000a",
            "deselect editor 00000000000e", "select editor 00000000000e",
        ] {
            _ = try state.execute(write: Array(write.utf8), now: 1)
        }
        try catalog.deleteAssets([AssetID("00000000000d")!])
        try state.reload()

        let expected = ["editor": ["a", "e"], "keeper": ["c", "a"]]
        let expectedHidden = [
            "editor": ["00000000000b=filtered-out", "00000000000c=withheld", "00000000000d=missing"], "keeper": [String](),
        ]
        let tree = state.views
        let current = state.current
        let text = state.render()
        let list = ExitCodeTests.photofs(["app", "list", "--json", "--catalog", path])
        #expect(list.status == 0, "\(list.output)")
        let listed = try #require(try JSONSerialization.jsonObject(with: Data(list.output.utf8)) as? [[String: Any]])
        for (name, letters) in expected {
            let app = try #require(tree.resolve(Array("apps/\(name)".utf8)))
            #expect(Self.letters(tree.children(of: app.inode).compactMap { tree.asset(of: $0)?.id.rawValue }) == letters, "views")
            let visible = AccessState(current.snapshot).visibleAssets(of: name, in: current.assets)
            #expect(Self.letters(visible.map(\.id.rawValue)) == letters, "visibleAssets")
            let selects = text.split(separator: "\n").filter { $0.hasPrefix("select \(name) ") }.map { String($0.split(separator: " ")[2]) }
            #expect(Self.letters(selects) == letters, ".picker")
            #expect(text.contains("# \(name): \(current.snapshot.grants[name]?.count ?? 0) selected, \(letters.count) visible\n"))

            let show = ExitCodeTests.photofs(["app", "show", "--json", "--catalog", path, name])
            #expect(show.status == 0, "\(show.output)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(show.output.utf8)) as? [String: Any])
            let shown = (object["assets"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            #expect(Self.letters(shown) == letters, "app show --json")
            #expect(object["visible"] as? Int == letters.count)
            let hidden = (object["hidden"] as? [[String: Any]] ?? []).map { "\($0["id"] ?? "")=\($0["reason"] ?? "")" }
            #expect(hidden == expectedHidden[name], "app show --json hidden")
            #expect(listed.first { $0["name"] as? String == name }?["visible"] as? Int == letters.count, "app list --json")
            let plain = ExitCodeTests.photofs(["app", "show", "--catalog", path, name])
            #expect(
                plain.output.contains("\(letters.count) visible of \(current.snapshot.grants[name]?.count ?? 0) selected:"),
                "\(plain.output)")
        }
        #expect(text.contains("# select editor 00000000000c  # withheld: c.jpg cannot be served under --location strip"))
        #expect(text.contains("# select editor 00000000000d  # missing: no longer in the library"))
        #expect(text.contains("# select editor 00000000000b  # hidden: b.mp4 does not pass the filter"))
    }
}
