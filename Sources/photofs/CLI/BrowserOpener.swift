import Dispatch
import Glibc

/// Opens a local page (the picker, the privacy report) in the person's browser.
enum BrowserOpener {
    /// Opens `url` with xdg-open when a display is there, its output discarded; does
    /// nothing on a console or where xdg-open is missing (the command printed the address).
    static func open(_ url: String, environment: Environment) {
        let openers = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"]
        guard hasDisplay(environment.variables), let opener = openers.first(where: { isExecutable($0) }) else { return }
        start([opener, url])
    }

    /// Whether a graphical session is there (X11 or Wayland).
    static func hasDisplay(_ variables: [String: String]) -> Bool {
        ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(variables[$0] ?? "").isEmpty }
    }

    /// Browsers with an app mode (`--app=URL`: a window without tabs or address bar).
    static let appWindowBrowsers = [
        "chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "brave-browser", "microsoft-edge",
    ]

    /// Opens `url` as a window of its own, in front: an app window of a Chromium-family
    /// browser, else a new Firefox window, else whatever xdg-open chooses. The link's
    /// one-time token never appears in a command line (which any user can read): the
    /// browser opens a page (mode 0600, in the directory of this user's daemon sockets) that
    /// forwards to the link. Returns that page's path, for the caller to remove once the page
    /// was answered; nil when nothing was opened (no display, no private directory).
    static func openWindow(_ url: String, environment: Environment) -> String? {
        let variables = environment.variables
        // The daemon socket's directory: this user's own, which no one else may enter.
        let directory = PickerSocketPath.directory(environment: variables)
        guard hasDisplay(variables), PickerSocketPath.prepare(directory) == nil else { return nil }
        let path = directory + "/photofs-picker-" + String(UInt64.random(in: 0...UInt64.max), radix: 16) + ".html"
        let page = Array(
            "<!doctype html><meta charset=utf-8><title>photofs</title><meta http-equiv=refresh content=\"0;url=\(url)\">\n".utf8)
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return nil }
        let written = page.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        guard written == page.count else {
            unlink(path)
            return nil
        }
        let pageURL = "file://" + path
        let search = (variables["PATH"] ?? "/usr/bin:/bin").split(separator: ":").map(String.init)
        func find(_ name: String) -> String? { search.map { $0 + "/" + name }.first { isExecutable($0) } }
        if let browser = appWindowBrowsers.lazy.compactMap(find).first {
            start([browser, "--app=" + pageURL])
        } else if let firefox = find("firefox") {
            start([firefox, "--new-window", pageURL])
        } else if let opener = find("xdg-open") {
            start([opener, pageURL])
        } else {
            unlink(path)
            return nil
        }
        return path
    }

    private static func isExecutable(_ path: String) -> Bool {
        path.withCString { Glibc.access($0, X_OK) == 0 }
    }

    /// Starts `argv` with its output discarded, and reaps it on a background thread.
    private static func start(_ argv: [String]) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard let pid = Spawn.start(argv, fileActions: &actions) else { return }
        DispatchQueue.global(qos: .utility).async { _ = Spawn.wait(pid) }
    }
}
