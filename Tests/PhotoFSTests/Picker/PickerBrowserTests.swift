import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs pick` in real headless Chromium (selenium), against a real mount, answering a
/// request an app wrote from inside `photofs run` and is waiting on. Screenshots go to
/// `.build/picker-screenshots/` (copy the ones the README shows to `docs/images/`).
@Suite("Picker page in a browser", .serialized, .enabled(if: PickerBrowser.available))
struct PickerBrowserTests {
    /// A mounted 8-photo library; app `editor` (images, limit 6) holding asset 0; the app
    /// waiting on `request` inside the sandbox; `photofs pick editor` serving its page.
    static func withWaitingApp(
        request: String, _ body: (IntegrationLibrary, _ app: BackgroundProcess, _ url: String) throws -> Void
    ) throws {
        let library = try IntegrationLibrary(count: 8, prefix: "photofs-browser")
        defer { library.remove() }
        let home = library.base + "/home"
        mkdir(home, 0o700)
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor", "--filter", "type:image", "--limit", "6"])
        try library.photofs(["select", "editor", library.assets[0].id])
        let app = try RequestFileTests.app(
            library, home: home, "echo '\(request)' > \"$PHOTOFS_DIR/.request\" && cat \"$PHOTOFS_DIR/.request\"", name: "app")
        defer { app.stop() }
        #expect(RequestFileTests.pendingLines(library.mountpoint).count == 1)
        try withPicker(library) { url in try body(library, app, url) }
    }

    /// Runs `photofs pick editor` on `library` and hands its URL to `body`; the picker must
    /// end by itself (the page's Add or Cancel) with status 0.
    static func withPicker(_ library: IntegrationLibrary, _ body: (_ url: String) throws -> Void) throws {
        let picker = try BackgroundProcess(
            [
                "/usr/bin/env", "XDG_CACHE_HOME=\(library.base)/cache", DaemonProcess.binary, "pick", "--no-open", "--catalog",
                library.catalog, "editor",
            ],
            output: library.base + "/pick.out")
        defer { picker.stop() }
        #expect(picker.waitForOutput(timeout: 20) { $0.contains("?token=") }, "\(picker.output)")
        let url = try #require(
            picker.output.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map {
                String($0.trimmingCharacters(in: .whitespacesAndNewlines))
            })
        try body(url)
        #expect(picker.wait(timeout: 20) == 0, "\(picker.output)")
    }

    /// Runs the selenium script; what it saw.
    static func browse(_ url: String, scenario: String, limit: Int, queries: [String] = []) throws -> [String: Any] {
        let shots = IntegrationLibrary.packageRoot + "/.build/picker-screenshots"
        mkdir(shots, 0o755)
        let queryText = String(decoding: try JSONSerialization.data(withJSONObject: queries), as: UTF8.self)
        let result = run([
            PickerBrowser.python, IntegrationLibrary.packageRoot + "/Tests/Browser/picker_browser.py", url, shots, scenario, String(limit),
            queryText,
        ])
        guard result.status == 0, let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            throw IntegrationLibrary.SetupFailure(description: "browser script failed (\(result.status)): \(result.output)")
        }
        return try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
    }

    /// The grants of `editor`, in order, from `.picker`'s rendering.
    static func grants(_ library: IntegrationLibrary) -> [String] {
        let text = (try? String(contentsOfFile: library.mountpoint + "/.picker", encoding: .utf8)) ?? ""
        let line = text.split(separator: "\n").first { $0.hasPrefix("select editor ") } ?? ""
        return line.split(separator: " ").dropFirst(2).map(String.init)
    }

    /// Checks the waiting app's answer `output`: `selected N`, then a line for each of the
    /// `picked` asset ids, in that order, naming its file; the answer's lines.
    @discardableResult
    static func checkAnswer(
        _ output: String, picked: [String], library: IntegrationLibrary, sourceLocation: SourceLocation = #_sourceLocation
    ) -> [String] {
        let answer = output.split(separator: "\n").map(String.init)
        #expect(answer.first == "selected \(picked.count)", "\(output)", sourceLocation: sourceLocation)
        for (index, id) in picked.enumerated() {
            let path = library.assets.first { $0.id == id }?.path ?? "?"
            let stem = String(path.split(separator: "/").last!.split(separator: ".").first!)
            #expect(
                answer.count > index + 1 && answer[index + 1].hasPrefix(stem), "pick \(index + 1) \(path) vs \(answer)",
                sourceLocation: sourceLocation)
        }
        return answer
    }

    @Test func addGrantsThePicksInOrderAndTheWaitingAppReadsThem() throws {
        try Self.withWaitingApp(request: "media=image limit=3") { library, app, url in
            let seen = try Self.browse(url, scenario: "add", limit: 3)
            #expect(seen["no_token"] as? Int == 403)
            #expect(seen["foreign_host"] as? Int == 403)
            #expect((seen["header"] as? String)?.contains("editor receives up to 3 photos") == true, "\(seen)")
            #expect((seen["header"] as? String)?.contains("location removed") == true)
            #expect(seen["videos"] as? Int == 0)
            #expect((seen["search_error"] as? String)?.contains("taken:20x") == true, "\(seen)")
            #expect(seen["search_error_column"] as? Int == 7)
            let picked = seen["picked"] as? [String] ?? []
            #expect(picked.count == 3)
            #expect((seen["badges"] as? [Any])?.last is NSNull, "the refused pick has no badge: \(seen)")
            #expect((seen["badges"] as? [Any])?.prefix(3).compactMap { $0 as? String } == ["1", "2", "3"])
            #expect(seen["notice"] as? String == "Select up to 3.")
            #expect(seen["add_label"] as? String == "Add (3)")
            // Nothing is granted before the person confirms what the page shows.
            #expect(seen["question"] as? String == "Add 3 photos to editor?", "\(seen)")
            #expect((seen["confirm_details"] as? [String])?.first == "editor receives them with location removed.", "\(seen)")
            #expect(seen["confirm_enabled_at_once"] as? Bool == false)
            #expect((seen["done"] as? String)?.hasPrefix("Added 3 photos to editor.") == true, "\(seen)")
            #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen)")
            // The grant: the old one, then the three picks in the order they were clicked.
            #expect(app.wait(timeout: 20) == 0, "\(app.output)")
            let answer = Self.checkAnswer(app.output, picked: picked, library: library)
            let view = IntegrationLibrary.names(library.mountpoint + "/apps/editor")
            #expect(answer.dropFirst().allSatisfy(view.contains) && view.count == 4, "\(answer) vs \(view)")
            let grantsRendered = Self.grants(library)
            #expect(grantsRendered.count == 4, "\(grantsRendered)")
            let refused = seen["refused"] as? String ?? ""
            #expect(!picked.contains(refused))
        }
    }

    @Test func keyboardAlonePicksThreeInOrder() throws {
        try Self.withWaitingApp(request: "media=image limit=3") { library, app, url in
            let seen = try Self.browse(url, scenario: "keyboard", limit: 3)
            #expect(seen["reached_grid"] as? Bool == true, "\(seen)")
            #expect(seen["focus_visible"] as? Bool == true)
            let picked = seen["picked"] as? [String] ?? []
            #expect(picked.count == 3, "\(seen)")
            #expect(seen["status"] as? String == "Picked 3 of up to 3.", "\(seen)")
            // The accessibility tree names the picked tiles with their place in the order.
            let names = (seen["names"] as? [[Any]] ?? []).compactMap { $0.first as? String }
            for position in 1...3 { #expect(names.contains { $0.hasSuffix("picked \(position) of 3") }, "\(names)") }
            #expect(seen["reached_add"] as? Bool == true)
            #expect(seen["question"] as? String == "Add 3 photos to editor?")
            #expect(seen["focus_in_dialog"] as? String == "confirm-back")
            #expect(seen["confirm_focused"] as? String == "confirm-ok")
            #expect((seen["done"] as? String)?.hasPrefix("Added 3 photos to editor.") == true, "\(seen)")
            #expect(app.wait(timeout: 20) == 0, "\(app.output)")
            Self.checkAnswer(app.output, picked: picked, library: library)
        }
    }

    /// The tiles' accessible names, an audit of the accessibility tree, plain-word search,
    /// the Folders view, the preview, and scripted grants refused.
    @Test func aTourOfTheAccessiblePage() throws {
        try Self.withWaitingApp(request: "limit=2") { library, app, url in
            let listing = run([DaemonProcess.binary, "ls", "--json", "--catalog", library.catalog])
            let assets = try JSONSerialization.jsonObject(with: Data(listing.output.utf8)) as? [[String: Any]] ?? []
            func count(_ test: ([String: Any]) -> Bool) -> Int { assets.filter(test).count }
            func text(_ asset: [String: Any], _ key: String) -> String { (asset[key] as? String ?? "").lowercased() }
            let queries: [String: Int] = [
                "canon": count { text($0, "make").contains("canon") },
                "iphone": count { text($0, "model").contains("iphone") },
                "summer": count { text($0, "path").contains("summer") },
                "2025": count { text($0, "taken").hasPrefix("2025") },
                "july": count { text($0, "taken").hasPrefix("2023-07") },
                "IMG_0003 canon": count { text($0, "path").contains("img_0003") && text($0, "make").contains("canon") },
                "canon -0003": count { text($0, "make").contains("canon") && !text($0, "path").contains("0003") },
                "iphone taken:2023": count { text($0, "model").contains("iphone") && text($0, "taken").hasPrefix("2023") },
                #""camera roll""#: count { text($0, "path").hasPrefix("camera roll/") },
            ]
            #expect(Set(queries.values) != [0], "the fixture must have matches")
            let seen = try Self.browse(url, scenario: "tour", limit: 2, queries: Array(queries.keys) + ["canon taken:20x"])
            let names = seen["names"] as? [[Any]] ?? []
            #expect(names.count == library.assets.count, "\(names)")
            for name in names.compactMap({ $0.first as? String }) {
                // "14 June 2023, Canon EOS 40D": the date in words, then the camera.
                #expect(name.range(of: #"^\d{1,2} [A-Z][a-z]+ \d{4}, \S"#, options: .regularExpression) != nil, "\(name)")
            }
            #expect(names.contains { ($0.first as? String)?.hasSuffix("already shared") == true })
            #expect(seen["audit"] as? [String] == [], "\(seen["audit"] ?? "")")
            #expect(seen["audit_folders"] as? [String] == [], "\(seen["audit_folders"] ?? "")")
            let searches = seen["searches"] as? [String: Any] ?? [:]
            for (query, expected) in queries { #expect(searches[query] as? Int == expected, "\(query): \(searches[query] ?? "none")") }
            #expect((searches["canon taken:20x"] as? String)?.contains("^") == true, "a filter error still shows its column: \(searches)")
            #expect(
                seen["folders"] as? [[String]] == [["2023", "6 photos"], ["2023/Summer trip", "6 photos"], ["Camera Roll", "2 photos"]],
                "\(seen["folders"] ?? "")")
            #expect(seen["folder_covers"] as? Int == 3)
            #expect(seen["folder_search"] as? String == "folder:'Camera Roll'")
            #expect(seen["folder_count"] as? String == "2 items")
            #expect((seen["preview_caption"] as? String)?.contains(".jpg") == true, "\(seen)")
            #expect(seen["preview_focus"] as? String == "preview-pick")
            #expect(seen["preview_pick_label"] as? String == "Unselect")
            #expect(seen["picked_in_preview"] as? String == "Add (1)")
            #expect(seen["preview_next_caption"] as? String != seen["preview_caption"] as? String)
            #expect(seen["after_escape_focus_is_tile"] as? Bool == true)
            let scripted = seen["scripted_add"] as? [Any] ?? []
            #expect(scripted.count == 6, "\(seen)")
            #expect(scripted.first as? Int == 409 && (scripted[safe: 1] as? String)?.contains("confirm") == true, "\(scripted)")
            #expect(scripted[safe: 2] as? Int == 409 && (scripted[safe: 3] as? String)?.contains("too quickly") == true, "\(scripted)")
            #expect(scripted[safe: 4] as? Int == 409 && (scripted[safe: 5] as? String)?.contains("other photos") == true, "\(scripted)")
            #expect((seen["done"] as? String)?.hasPrefix("Cancelled") == true, "\(seen)")
            #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen)")
            #expect(app.wait(timeout: 20) == 0)
            #expect(app.output == "cancelled\n")
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 1, "nothing was granted")
        }
    }

    @Test func addWithNothingPickedAsksBeforeRemovingEveryGrant() throws {
        let library = try IntegrationLibrary(count: 8, prefix: "photofs-browser")
        defer { library.remove() }
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor"])
        try library.photofs(["select", "editor"] + library.assets.prefix(5).map(\.id))
        let view = library.mountpoint + "/apps/editor"
        #expect(IntegrationLibrary.names(view).count == 5)
        try Self.withPicker(library) { url in
            let seen = try Self.browse(url, scenario: "removeall", limit: 0)
            #expect(seen["add_label"] as? String == "Add (5)", "\(seen)")
            #expect(seen["add_label_empty"] as? String == "Add (0)")
            #expect(seen["question"] as? String == "Remove all 5 photos from editor?", "\(seen)")
            #expect(seen["confirm_button"] as? String == "Remove all")
            #expect(seen["back_hides"] as? Bool == true)
            // Back changed nothing; only the confirmed question removed the grants.
            #expect((seen["done"] as? String) != nil, "\(seen)")
        }
        #expect(IntegrationLibrary.names(view).isEmpty, "\(IntegrationLibrary.names(view))")
    }

    /// TIFFs, which Chromium cannot show: a tile has a picture or a placeholder naming its
    /// type and file (never its id), a file no decoder reads has the placeholder, and the
    /// preview says the browser cannot show the format.
    @Test func aFormatTheBrowserCannotShow() throws {
        let library = try IntegrationLibrary(count: 4, prefix: "photofs-browser")
        defer { library.remove() }
        mkdir(library.library + "/Scans", 0o755)
        let made = run([
            "/usr/bin/python3", "-c",
            "from PIL import Image; Image.new('RGB', (64, 48), (200, 40, 40)).save('\(library.library)/Scans/scan 7.tif'); "
                + "open('\(library.library)/Scans/scan broken.tif', 'wb').write(open('\(library.library)/Scans/scan 7.tif', 'rb').read()[:60])",
        ])
        try #require(made.status == 0, "\(made.output)")
        try library.photofs(["index", "--quiet", library.library])
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor"])
        try Self.withPicker(library) { url in
            let seen = try Self.browse(url, scenario: "format", limit: 0, queries: ["scan"])
            let tiles = seen["tiles"] as? [[String: Any]] ?? []
            #expect(seen["search"] as? Int == tiles.count && !tiles.isEmpty, "\(seen)")
            var placeholders = 0
            for tile in tiles {
                let label = tile["label"] as? String ?? ""
                let text = tile["text"] as? String ?? ""
                let name = label.split(separator: ",").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "?"
                #expect(name.hasPrefix("scan") && name.hasSuffix(".tif"), "the tile is named by its file: \(label)")
                let pictured = (tile["image"] as? Int ?? 0) > 0
                #expect(pictured || (text.contains("TIFF") && text.contains(name)), "a picture or a typed placeholder: \(tile)")
                #expect(!text.contains(tile["id"] as? String ?? "?"), "never the id: \(text)")
                if !pictured { placeholders += 1 }
                if name == "scan broken.tif" { #expect(!pictured, "no decoder reads it: \(tile)") }
            }
            #expect(
                (seen["preview_message"] as? String)?.hasPrefix("This browser cannot show TIFF files like scan") == true
                    && (seen["preview_message"] as? String)?.hasSuffix(".tif. You can still pick it.") == true, "\(seen)")
            #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen)")
            print("TIFF tiles: \(tiles.count - placeholders) with a thumbnail, \(placeholders) with a typed placeholder")
        }
    }

    @Test func cancelLeavesTheGrantsAndAnswersCancelled() throws {
        try Self.withWaitingApp(request: "limit=2") { library, app, url in
            let before = Self.grants(library)
            let seen = try Self.browse(url, scenario: "cancel", limit: 2)
            #expect((seen["done"] as? String)?.hasPrefix("Cancelled") == true, "\(seen)")
            #expect(app.wait(timeout: 20) == 0)
            #expect(app.output == "cancelled\n")
            #expect(Self.grants(library) == before)
            #expect(IntegrationLibrary.names(library.mountpoint + "/apps/editor").count == 1)
        }
    }
}

/// Whether Chromium, chromedriver and selenium are here (kept outside the suite).
enum PickerBrowser {
    /// Debian's python (selenium is a Debian package), not whatever `python3` the PATH finds first.
    static let python = "/usr/bin/python3"

    static var available: Bool {
        guard SandboxAvailability.available else { return false }
        for path in ["/usr/bin/chromium", "/usr/bin/chromedriver", python] where access(path, X_OK) != 0 {
            return Skip.unless(false, "browser test: \(path) is missing (mount-scripts/install-deps installs chromium, chromium-driver)")
        }
        if run([python, "-c", "import selenium"]).status != 0 {
            return Skip.unless(false, "browser test: python3-selenium is not installed (mount-scripts/install-deps installs it)")
        }
        return true
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
