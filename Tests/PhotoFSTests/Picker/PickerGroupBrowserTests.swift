import Foundation
import Glibc
import TestSupport
import Testing

/// A Live Photo pair and a RAW+JPEG pair made from corpus files are one tile each in the
/// picker, in real headless Chromium, badged and named so; picking the two tiles answers
/// the waiting app's request with all four files, which it reads through the mount.
@Suite("Groups in the picker page", .serialized, .enabled(if: PickerBrowser.available))
struct PickerGroupBrowserTests {
    static let identifier = "0E1D2C3B-4A59-4867-9586-A4B3C2D1E0FF"

    /// Two generated photos, a Live Photo pair (`Live/IMG_1.HEIC`, `.MOV`) and a RAW+JPEG pair
    /// (`Raw/DSC_1.JPG`, `.NEF`) made from corpus files, indexed; skips (saying why) without
    /// the corpus or exiftool.
    static func libraryWithGroups(_ suite: String, prefix: String) throws -> IntegrationLibrary {
        guard let corpus = SharedCorpus.directory else { try Skip.because("\(suite): corpus not found (set PHOTOFS_CORPUS)") }
        guard ExternalTools.exiftool != nil else { try Skip.because("\(suite): exiftool is missing") }
        let library = try IntegrationLibrary(count: 2, prefix: prefix)
        mkdir(library.library + "/Live", 0o755)
        mkdir(library.library + "/Raw", 0o755)
        try LivePhotoFixture.writeLivePair(corpus: corpus, folder: library.library + "/Live", name: "IMG_1", identifier: identifier)
        try LivePhotoFixture.writeRawPair(corpus: corpus, folder: library.library + "/Raw", name: "DSC_1")
        try library.photofs(["index", "--quiet", library.library])
        return library
    }

    @Test func aLivePhotoAndARawJPEGPairAreOneTileEachAndPickingGrantsEveryPart() throws {
        let library = try Self.libraryWithGroups("PickerGroupBrowserTests", prefix: "photofs-groups")
        defer { library.remove() }
        let listing = run([DaemonProcess.binary, "ls", "--json", "--catalog", library.catalog])
        let objects = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]] ?? []
        var ids: [String: String] = [:]
        for object in objects { if let path = object["path"] as? String { ids[path] = object["id"] as? String } }
        let still = try #require(ids["Live/IMG_1.HEIC"], "\(ids)")
        let movie = try #require(ids["Live/IMG_1.MOV"], "\(ids)")
        let jpeg = try #require(ids["Raw/DSC_1.JPG"], "\(ids)")
        let raw = try #require(ids["Raw/DSC_1.NEF"], "\(ids)")

        let home = library.base + "/home"
        mkdir(home, 0o700)
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor"])
        let app = try RequestFileTests.app(
            library, home: home, "echo 'limit=2' > \"$PHOTOFS_DIR/.request\" && cat \"$PHOTOFS_DIR/.request\"", name: "app")
        defer { app.stop() }
        #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
        try PickerBrowserTests.withPicker(library) { url in
            let seen = try PickerBrowserTests.browse(url, scenario: "groups", limit: 2)
            let tiles = seen["tiles"] as? [[String: Any]] ?? []
            #expect(tiles.count == 4, "two generated photos and two groups: \(tiles)")
            let byID = Dictionary(tiles.map { ($0["id"] as? String ?? "", $0) }, uniquingKeysWith: { a, _ in a })
            #expect(byID[movie] == nil && byID[raw] == nil, "no tile of its own for a group's other member: \(tiles)")
            #expect(byID[still]?["badge"] as? String == "LIVE", "\(tiles)")
            #expect(byID[jpeg]?["badge"] as? String == "RAW+JPEG", "\(tiles)")
            #expect((byID[still]?["label"] as? String)?.contains("Live Photo (still and video)") == true, "\(tiles)")
            #expect((byID[jpeg]?["label"] as? String)?.contains("RAW+JPEG pair") == true, "\(tiles)")
            let names = seen["names"] as? [String] ?? []
            #expect(names.contains { $0.contains("Live Photo") } && names.contains { $0.contains("RAW+JPEG pair") }, "\(names)")
            #expect(Set(seen["picked"] as? [String] ?? []) == [still, jpeg], "\(seen)")
            #expect(seen["question"] as? String == "Add 2 photos to editor?", "\(seen)")
            #expect(
                (seen["confirm_details"] as? [String])?.contains("Live Photos and RAW+JPEG pairs come with every part: 4 files in all.")
                    == true, "\(seen)")
            #expect((seen["done"] as? String)?.hasPrefix("Added 4 photos to editor.") == true, "\(seen)")
            #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen)")
        }
        #expect(app.wait(timeout: 20) == 0, "\(app.output)")
        #expect(app.output.hasPrefix("selected 4\n"), "\(app.output)")
        // Every part, read through the mount.
        let view = library.mountpoint + "/apps/editor"
        let shown = IntegrationLibrary.names(view)
        #expect(shown.count == 4, "\(shown)")
        for stem in ["IMG_1", "DSC_1"] {
            for ext in stem == "IMG_1" ? [".HEIC", ".MOV"] : [".JPG", ".NEF"] {
                let name = shown.first { $0.hasPrefix(stem) && $0.hasSuffix(ext) }
                #expect(name != nil, "\(stem)\(ext) in \(shown)")
                if let name { #expect((FileManager.default.contents(atPath: view + "/" + name)?.count ?? 0) > 1000, "\(name)") }
            }
        }
        // `.picker`, `app show` and `show` name the group.
        let picker = (try? String(contentsOfFile: library.mountpoint + "/.picker", encoding: .utf8)) ?? ""
        #expect(picker.contains("select editor \(still)  # Live/IMG_1.HEIC (LIVE with \(movie))"), "\(picker)")
        #expect(picker.contains("select editor \(raw)  # Raw/DSC_1.NEF (RAW+JPEG with \(jpeg))"), "\(picker)")
        let shownApp = run([DaemonProcess.binary, "app", "show", "editor", "--catalog", library.catalog]).output
        #expect(shownApp.contains("Live/IMG_1.MOV (LIVE with \(still))"), "\(shownApp)")
        let shownAsset = run([DaemonProcess.binary, "show", "--catalog", library.catalog, "Live/IMG_1.HEIC"]).output
        #expect(shownAsset.contains("bundle       LIVE: Live/IMG_1.MOV"), "\(shownAsset)")

        // `photofs select` of one part, through the mount: the parts the app's filter allows.
        try library.photofs(["app", "add", "stills", "--filter", "type:image"])
        try library.photofs(["select", "stills", still])
        #expect(IntegrationLibrary.names(library.mountpoint + "/apps/stills").count == 1, "the movie is outside the filter")
        try library.photofs(["app", "add", "all"])
        try library.photofs(["select", "all", raw])
        #expect(IntegrationLibrary.names(library.mountpoint + "/apps/all").count == 2)
        try library.photofs(["deselect", "all", jpeg])
        #expect(IntegrationLibrary.names(library.mountpoint + "/apps/all").isEmpty, "deselecting one part takes the pair")
    }
}
