import Glibc

/// Opens a local page (the picker, the privacy report) in the person's browser.
enum BrowserOpener {
    /// Opens `url` with xdg-open when a display is there, its output discarded; does
    /// nothing on a console or where xdg-open is missing (the command printed the address).
    static func open(_ url: String, environment: Environment) {
        let hasDisplay =
            environment.variables["DISPLAY"].map { !$0.isEmpty } ?? false
            || environment.variables["WAYLAND_DISPLAY"].map { !$0.isEmpty } ?? false
        let openers = ["/usr/bin/xdg-open", "/usr/local/bin/xdg-open"]
        guard hasDisplay, let opener = openers.first(where: { path in path.withCString { Glibc.access($0, X_OK) == 0 } }) else { return }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        _ = Spawn.start([opener, url], fileActions: &actions)
    }
}
