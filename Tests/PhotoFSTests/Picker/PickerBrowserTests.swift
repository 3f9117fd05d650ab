import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs pick` in real headless Chromium (selenium), against a real mount, answering a
/// request an app wrote from inside `photofs run` and is waiting on. Screenshots go to
/// `.build/picker-screenshots/`.
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
        try body(library, app, url)
        #expect(picker.wait(timeout: 20) == 0, "\(picker.output)")
    }

    /// Runs the selenium script; what it saw.
    static func browse(_ url: String, scenario: String, limit: Int) throws -> [String: Any] {
        let shots = IntegrationLibrary.packageRoot + "/.build/picker-screenshots"
        mkdir(shots, 0o755)
        let result = run([
            PickerBrowser.python, IntegrationLibrary.packageRoot + "/Tests/Browser/picker_browser.py", url, shots, scenario, String(limit),
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
            #expect((seen["done"] as? String)?.hasPrefix("Added 3 photos to editor.") == true, "\(seen)")
            #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen)")
            // The grant: the old one, then the three picks in the order they were clicked.
            #expect(app.wait(timeout: 20) == 0, "\(app.output)")
            let view = IntegrationLibrary.names(library.mountpoint + "/apps/editor")
            let answer = app.output.split(separator: "\n").map(String.init)
            #expect(answer.first == "selected 3", "\(app.output)")
            #expect(answer.dropFirst().allSatisfy(view.contains) && view.count == 4, "\(answer) vs \(view)")
            let grantsRendered = Self.grants(library)
            #expect(grantsRendered.count == 4, "\(grantsRendered)")
            let refused = seen["refused"] as? String ?? ""
            #expect(!picked.contains(refused))
            for (index, id) in picked.enumerated() {
                let path = library.assets.first { $0.id == id }?.path ?? "?"
                let stem = String(path.split(separator: "/").last!.split(separator: ".").first!)
                #expect(answer.count > index + 1 && answer[index + 1].hasPrefix(stem), "pick \(index + 1) \(path) vs \(answer)")
            }
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
