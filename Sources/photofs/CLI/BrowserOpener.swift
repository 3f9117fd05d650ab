import DaemonClient
import Foundation
import MediaFormats
import PickerServer
import SystemKit

/// Opens a local page that carries a one-time token (the picker, the privacy report) in the
/// person's browser, without the token ever appearing in a process's arguments or
/// environment, which every local user can read in `/proc`: the address goes into a
/// private redirect file (mode 0600, in the user's own 0700 runtime directory, see
/// `PickerSocketPath.directory`), and the browser is started on that file's path.
enum BrowserOpener {
    /// Where the redirect file of an opened page is, so it can be removed once the token
    /// was spent or the page ended.
    struct RedirectFile: Sendable {
        let path: String

        func remove() { try? FileSystem.remove(path) }
    }

    /// Whether a graphical session is there (X11 or Wayland).
    static func hasDisplay(_ variables: [String: String]) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(variables[$0] ?? "").isEmpty }
    }

    /// Opens `url` when a display is there (with `$BROWSER` when set, else xdg-open), its
    /// output discarded; nil (nothing opened) on a console, where no opener is found, or
    /// where no private directory can be had (the command prints the address instead).
    /// With `window` (and no `$BROWSER`), as a window of its own, in front: an app window of a
    /// Chromium-family browser (`--app`: no tabs, no address bar), else a new Firefox window,
    /// else as above.
    static func open(_ url: String, environment: Environment, window: Bool = false) -> RedirectFile? {
        let variables = environment.variables
        // `$BROWSER` is the person's choice, window or not.
        let chosen = window && (variables["BROWSER"] ?? "").isEmpty ? windowOpener(variables) : nil
        guard hasDisplay(variables), let opener = chosen ?? opener(variables) else {
            return nil
        }
        let directory = PickerSocketPath.directory(environment: variables)
        guard PickerSocketPath.prepare(directory) == nil, let file = write(url, in: directory) else { return nil }
        let page = "file://" + file.path
        let argv = opener.last == "--app=" ? opener.dropLast() + ["--app=" + page] : opener + [page]
        // Reaped in the background: the picker serves its page meanwhile.
        guard Spawn.startReaped(Array(argv)) else {
            file.remove()
            return nil
        }
        return file
    }

    /// Browsers with an app mode: a window of its own for one page.
    static let appWindowBrowsers = [
        "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "brave-browser", "microsoft-edge",
    ]

    /// The command that opens a page as a window of its own (its last word `--app=` takes the
    /// page glued on): a Chromium-family browser on the PATH, else Firefox; nil for neither.
    private static func windowOpener(_ variables: [String: String]) -> [String]? {
        let search = (variables["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ program: String) -> String? {
            search.map { $0 + "/" + program }.first(where: FileSystem.isExecutable)
        }
        if let browser = appWindowBrowsers.lazy.compactMap(find).first { return [browser, "--app="] }
        return find("firefox").map { [$0, "--new-window"] }
    }

    /// The command that opens a page: `$BROWSER` (split at spaces, as a program path or a
    /// name on the PATH), else xdg-open.
    private static func opener(_ variables: [String: String]) -> [String]? {
        let search = (variables["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func executable(_ path: String) -> Bool { FileSystem.isExecutable(path) }
        func find(_ program: String) -> String? {
            if program.contains("/") { return executable(program) ? program : nil }
            return search.map { $0 + "/" + program }.first(where: executable)
        }
        if let browser = variables["BROWSER"], let first = browser.split(separator: " ").first, let program = find(String(first)) {
            return [program] + browser.split(separator: " ").dropFirst().map(String.init)
        }
        return ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"].first(where: executable).map { [$0] }
    }

    /// Writes the redirect page for `url` as a new file of mode 0600 in `directory`.
    private static func write(_ url: String, in directory: String) -> RedirectFile? {
        let escaped = TextEscaping.xml(url)
        let page = """
            <!doctype html><html><head><meta charset="utf-8"><meta name="referrer" content="no-referrer">\
            <meta http-equiv="refresh" content="0;url=\(escaped)"><title>photofs</title></head>\
            <body><p><a href="\(escaped)">Open the photofs page</a></p></body></html>

            """
        for _ in 0..<8 {
            let path = directory + "/open-" + PickerGate.randomHex(12) + ".html"
            let descriptor: FileDescriptor
            do throws(Errno) {
                descriptor = try FileDescriptor.open(path, [.writeOnly, .create, .exclusive, .noFollow], mode: 0o600)
            } catch {
                if error == .fileExists { continue }
                return nil
            }
            defer { descriptor.close() }
            let bytes = Array(page.utf8)
            let written = try? descriptor.write(bytes)
            guard written == bytes.count else {
                try? FileSystem.remove(path)
                return nil
            }
            return RedirectFile(path: path)
        }
        return nil
    }
}
