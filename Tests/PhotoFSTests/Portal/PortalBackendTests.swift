import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs portal` called the way xdg-desktop-portal calls it
/// (`org.freedesktop.impl.portal.FileChooser`), on a private session bus, with a Flatpak
/// app id; and the command line's errors and backend discovery.
@Suite("Desktop portal: the backend called directly", .serialized, .enabled(if: PortalSession.available))
struct PortalBackendTests {
    @Test func anUnknownAppIsMadeWithLocationStripAndGetsOnlyThePicks() throws {
        try PortalFixture.with(frontend: false) { fixture in
            let app = "org.example.Uploader"
            #expect(fixture.app(app).isEmpty)
            let located = fixture.locatedAssets()
            try #require(!located.isEmpty)
            let client = try fixture.session.client(["impl", "images", app], name: "client")
            let request = try #require(fixture.pendingRequest(of: app), "\(client.output)\n\(fixture.backend.output)")
            #expect(request["media"] as? String == "image")
            #expect(fixture.app(app)["location"] as? String == "strip", "\(fixture.app(app))")
            #expect(fixture.backend.output.contains("made app \(app) (location strip)"))
            let picks = [located[0], 5]
            try fixture.answer(app, id: request["id"] as? Int ?? -1, with: picks)
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 0, "\(answer)")
            let uris = (answer["results"] as? [String: Any])?["uris"] as? [String] ?? []
            fixture.expectPicked(uris, app: app, indices: picks)
            // The app's view holds exactly the picks, nothing else of the library.
            #expect(fixture.view(app) == uris.compactMap { URL(string: $0)?.lastPathComponent }.sorted())
            #expect(fixture.app(app)["selected"] as? Int == 2)
        }
    }

    @Test func closingTheHandleCancelsThePick() throws {
        try PortalFixture.with(frontend: false) { fixture in
            let app = "org.example.Closer"
            let client = try fixture.session.client(["impl", "images", app, "--single", "--close-after", "4"], name: "client")
            let request = try #require(fixture.pendingRequest(of: app), "\(client.output)")
            #expect(request["limit"] as? Int == 1)
            let answer = PortalSession.answer(of: client)
            #expect(client.output.contains("\"closed\""), "\(client.output)")
            #expect(answer["response"] as? Int == 1, "\(answer)")
            #expect(fixture.noPendingRequest(of: app))
            #expect(fixture.view(app).isEmpty)
        }
    }

    @Test func anyOtherDialogArrivesUnchangedAtTheDesktopBackend() throws {
        try PortalFixture.with(frontend: false) { fixture in
            let client = try fixture.session.client(["impl", "documents", "org.example.Writer"], name: "client")
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 0, "\(answer)")
            let results = answer["results"] as? [String: Any] ?? [:]
            #expect(results["uris"] as? [String] == ["file:///stub/OpenFile"])
            let handle =
                (client.output.split(separator: "\n").first { $0.contains("\"asked\"") }).flatMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
                }?["asked"] as? String ?? "?"
            // Every argument as the app sent it, in order, with the options in its order.
            #expect(
                results["stub_received"] as? String
                    == "(objectpath '\(handle)', 'org.example.Writer', '', 'Choose photos', {'handle_token': <'t'>, 'multiple': <true>, "
                    + "'accept_label': <'Use'>, 'filters': <[('PDF', [(uint32 1, 'application/pdf')]), ('All files', [(0, '*')])]>, "
                    + "'current_filter': <('PDF', [(uint32 1, 'application/pdf')])>})", "\(results)")
            #expect(fixture.app("org.example.Writer").isEmpty)
        }
    }

    /// Closing a forwarded dialog's handle closes it at the desktop's backend, whose answer
    /// (1) comes back.
    @Test func closingAForwardedDialogClosesItAtTheDesktopBackend() throws {
        try PortalFixture.with(frontend: false) { fixture in
            let client = try fixture.session.client(
                ["impl", "documents", "org.example.Writer", "--close-after", "2", "--title", "hold"], name: "client")
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 1, "\(answer) \(client.output)")
            let handle =
                (client.output.split(separator: "\n").first { $0.contains("\"closed\"") }).flatMap {
                    (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
                }?["closed"] as? String ?? "?"
            #expect(fixture.stub.output.contains("closed \(handle)\n"), "\(fixture.stub.output)")
        }
    }

    /// With a display, a request opens the picker by itself, as a window of its own (here a
    /// stand-in `chromium` on the PATH records how it was started, and selenium plays the person).
    @Test(.enabled(if: PickerBrowser.available)) func aRequestOpensThePickerWindow() throws {
        let tools = temporaryDirectory("photofs-portal-window")
        defer { run(["/bin/rm", "-rf", tools]) }
        // Where the forwarding page goes: the directory of this user's daemon sockets.
        let runtime =
            ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? $0 + "/photofs" : nil }
            ?? (getuid() == 0 ? "/run/photofs" : "/tmp/photofs-\(getuid())")
        let record = tools + "/chromium.out"
        let script = "#!/bin/sh\nprintf 'arg %s\\n' \"$@\" >> \(record)\ncat \"${1#--app=file://}\" >> \(record)\n"
        try script.write(toFile: tools + "/chromium", atomically: true, encoding: .utf8)
        chmod(tools + "/chromium", 0o755)
        let path = tools + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        try PortalFixture.with(
            frontend: false, backendArguments: [],
            backendVariables: ["DISPLAY=:77", "PATH=\(path)", "XDG_CACHE_HOME=\(tools)/cache"]
        ) {
            fixture in
            let app = "org.example.Window"
            try fixture.library.photofs(["app", "add", app])
            let client = try fixture.session.client(["impl", "images", app], name: "client")
            var recorded = ""
            for _ in 0..<200 where !recorded.contains("token=") {
                usleep(100_000)
                recorded = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
            }
            let arguments = recorded.split(separator: "\n").filter { $0.hasPrefix("arg ") }
            #expect(arguments.count == 1 && arguments[0].hasPrefix("arg --app=file://\(runtime)/open-"), "\(recorded)")
            #expect(!arguments.contains { $0.contains("token") }, "the link stays out of the command line")
            let url = try #require(
                recorded.components(separatedBy: "url=").last?.components(separatedBy: "\"").first, "\(recorded)\n\(fixture.backend.output)"
            )
            #expect(url.hasPrefix("http://127.0.0.1:") && url.contains("?token="))
            let seen = try PickerBrowserTests.browse(url, scenario: "pick", limit: 2)
            let picked = seen["picked"] as? [String] ?? []
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 0, "\(answer)")
            let uris = (answer["results"] as? [String: Any])?["uris"] as? [String] ?? []
            fixture.expectPicked(uris, app: app, indices: picked.compactMap { id in fixture.library.assets.firstIndex { $0.id == id } })
            #expect(picked.count == 2)
            // The forwarding page goes with the picker.
            let page = String(arguments.first?.dropFirst("arg --app=file://".count) ?? "")
            for _ in 0..<100 where access(page, F_OK) == 0 { usleep(100_000) }
            #expect(access(page, F_OK) != 0, "\(page) is left behind")
        }
    }

    @Test func commandLineErrorsAreClear() throws {
        let session = try PortalSession(base: temporaryDirectory("photofs-portal-cli"))
        defer {
            session.stop()
            run(["/bin/rm", "-rf", session.base])
        }
        #expect(run([DaemonProcess.binary, "portal", "--help"]).output.contains("org.freedesktop.impl.portal.desktop.photofs"))
        #expect(run([DaemonProcess.binary, "portal", "extra"]).status == 2)
        let notMounted = run([DaemonProcess.binary, "portal", "--mountpoint", session.base])
        #expect(notMounted.status == 4 && notMounted.output.contains("is not a photofs mount"), "\(notMounted.output)")
        let noBus = run(["/usr/bin/env", "-u", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR=", DaemonProcess.binary, "portal"])
        #expect(noBus.status == 3 && noBus.output.contains("no session bus"), "\(noBus.output)")
        // A second backend on the same bus is refused, and says why.
        let first = try session.start([DaemonProcess.binary, "portal", "--desktop", "gtk"], name: "first")
        #expect(first.waitForOutput(timeout: 20) { $0.contains("portal: serving") }, "\(first.output)")
        let second = run(["/usr/bin/env"] + session.variables + [DaemonProcess.binary, "portal", "--desktop", "gtk"])
        #expect(second.status == 5 && second.output.contains("already owns"), "\(second.output)")
    }

    @Test func theDesktopBackendIsFoundLikeThePortalFindsIt() throws {
        let base = temporaryDirectory("photofs-portal-which")
        defer { run(["/bin/rm", "-rf", base]) }
        let portals = base + "/data/xdg-desktop-portal/portals"
        let config = base + "/config/xdg-desktop-portal"
        for directory in [base + "/data", base + "/data/xdg-desktop-portal", portals, base + "/config", config] { mkdir(directory, 0o755) }
        for (name, useIn) in [("gnome", "gnome"), ("gtk", "gnome;unity"), ("kde", "KDE"), ("photofs", "photofs")] {
            let text = """
                [portal]
                DBusName=org.freedesktop.impl.portal.desktop.\(name)
                Interfaces=org.freedesktop.impl.portal.FileChooser;org.freedesktop.impl.portal.AppChooser;
                UseIn=\(useIn)

                """
            try text.write(toFile: "\(portals)/\(name).portal", atomically: true, encoding: .utf8)
        }
        func which(_ desktop: String, _ extra: [String] = []) -> String {
            let result = run(
                [
                    "/usr/bin/env", "-u", "XDG_DESKTOP_PORTAL_DIR", "XDG_DATA_DIRS=\(base)/data", "XDG_CONFIG_HOME=\(base)/config",
                    "XDG_CONFIG_DIRS=\(base)/none",
                    "XDG_CURRENT_DESKTOP=\(desktop)", DaemonProcess.binary, "portal", "--which",
                ] + extra)
            return result.output.split(separator: "\n").first { $0.hasPrefix("desktop: ") }.map(String.init) ?? result.output
        }
        // UseIn, as xdg-desktop-portal 1.16 reads it; photofs itself is never the answer.
        #expect(which("photofs:KDE").hasPrefix("desktop: org.freedesktop.impl.portal.desktop.kde (from \(portals)/kde.portal)"))
        #expect(which("GNOME").hasPrefix("desktop: org.freedesktop.impl.portal.desktop.gnome "))
        #expect(which("sway").hasPrefix("desktop: org.freedesktop.impl.portal.desktop.gtk "), "no match: gtk, as the portal falls back")
        // portals.conf, as newer portals read it: the first entry that is not photofs.
        try "[preferred]\ndefault=gnome\norg.freedesktop.impl.portal.FileChooser=photofs;kde\n".write(
            toFile: config + "/portals.conf", atomically: true, encoding: .utf8)
        #expect(which("GNOME") == "desktop: org.freedesktop.impl.portal.desktop.kde (from \(config)/portals.conf)")
        try "[preferred]\ndefault=gtk\n".write(toFile: config + "/sway-portals.conf", atomically: true, encoding: .utf8)
        #expect(which("sway").hasPrefix("desktop: org.freedesktop.impl.portal.desktop.gtk (from \(config)/sway-portals.conf)"))
        // --desktop wins.
        #expect(which("GNOME", ["--desktop", "org.example.Chooser"]) == "desktop: org.example.Chooser (from --desktop)")
        #expect(which("GNOME", ["--desktop", "gtk"]) == "desktop: org.freedesktop.impl.portal.desktop.gtk (from --desktop)")
    }

    @Test(.enabled(if: Skip.unless(SystemdUnitTests.analyzer != nil, "systemd unit test: systemd-analyze is not installed")))
    func theUserUnitVerifiesCleanly() throws {
        let analyzer = try #require(SystemdUnitTests.analyzer)
        let directory = temporaryDirectory("photofs-portal-unit")
        defer { run(["/bin/rm", "-rf", directory]) }
        let template = try String(contentsOfFile: IntegrationLibrary.mountScripts + "/photofs-portal.service", encoding: .utf8)
        let unit = directory + "/photofs-portal.service"
        try template.replacingOccurrences(of: "/usr/local/bin/photofs", with: DaemonProcess.binary).write(
            toFile: unit, atomically: true, encoding: .utf8)
        let result = SystemdUnitTests.verify(analyzer, unit, runtime: directory)
        #expect(result.status == 0 && result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(result.output)")
    }
}
