import Foundation
import Glibc
import TestSupport
import Testing

/// An app's file dialog through the real xdg-desktop-portal frontend on a private session
/// bus, with `photofs portal` as its FileChooser backend (chosen by the shipped
/// `photofs.portal` and `XDG_CURRENT_DESKTOP=photofs:GNOME`, as on Debian 12): a photo
/// dialog becomes a pick request of the app (`desktop`: the client is a host app), every
/// other dialog reaches the stand-in desktop backend and comes back unchanged.
@Suite("Desktop portal: dialogs through xdg-desktop-portal", .serialized, .enabled(if: PortalSession.available))
struct PortalFrontendTests {
    @Test func anImageDialogIsAPickAnsweredThroughTheRequestFiles() throws {
        try PortalFixture.with(frontend: true) { fixture in
            let located = fixture.locatedAssets()
            let gps = try #require(located.first, "the generated library has a photo with a location")
            let client = try fixture.session.client(["portal", "OpenFile", "images"], name: "client")
            let request = try #require(fixture.pendingRequest(of: "desktop"), "\(client.output)\n\(fixture.backend.output)")
            #expect(request["media"] as? String == "image")
            #expect(request["limit"] is NSNull, "multiple=true asks for any number: \(request)")
            #expect(request["mode"] as? String == "add")
            #expect(request["title"] as? String == "Choose photos", "the dialog's title is the request's")
            #expect(request["new_app"] as? Bool == true, "photofs made the app for this request")
            // A host app has no app id: its requests are the app `desktop`, made with location strip.
            #expect(fixture.app("desktop")["location"] as? String == "strip")
            // Picked out of library order, the located photo among them.
            let picks = [5, gps, gps == 1 ? 2 : 1]
            try fixture.answer("desktop", id: request["id"] as? Int ?? -1, with: picks)
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 0, "\(answer) \(client.output)")
            let uris = (answer["results"] as? [String: Any])?["uris"] as? [String] ?? []
            fixture.expectPicked(uris, app: "desktop", indices: picks)
            #expect(
                fixture.stub.output.split(separator: "\n").filter { $0.hasPrefix("call ") }.isEmpty,
                "a photo dialog never reaches the desktop's backend")
        }
    }

    @Test func cancelAnswersOneAndChangesNoGrant() throws {
        try PortalFixture.with(frontend: true) { fixture in
            try fixture.library.photofs(["app", "add", "desktop"])
            try fixture.library.photofs(["select", "desktop", fixture.library.assets[2].id])
            let before = fixture.view("desktop")
            let client = try fixture.session.client(["portal", "OpenFile", "media", "--single"], name: "client")
            let request = try #require(fixture.pendingRequest(of: "desktop"), "\(client.output)")
            #expect(request["media"] as? String == "any(image,video)")
            #expect(request["limit"] as? Int == 1, "multiple=false is limit 1: \(request)")
            #expect(request["new_app"] as? Bool == false)
            #expect(
                RequestFileTests.write("cancel desktop \(request["id"] as? Int ?? -1)\n", to: fixture.library.mountpoint + "/.requests")
                    == 0)
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 1, "\(answer)")
            // The frontend adds an empty `uris` to every answer.
            #expect(((answer["results"] as? [String: Any])?["uris"] as? [String]) == [], "\(answer)")
            #expect(fixture.view("desktop") == before)
        }
    }

    @Test func saveAndDocumentDialogsReachTheDesktopBackendUnchanged() throws {
        try PortalFixture.with(frontend: true) { fixture in
            for (method, kind) in [("SaveFile", "documents"), ("OpenFile", "documents"), ("OpenFile", "none")] {
                let client = try fixture.session.client(["portal", method, kind], name: "client-\(method)-\(kind)")
                let answer = PortalSession.answer(of: client)
                #expect(answer["response"] as? Int == 0, "\(method) \(kind): \(answer) \(client.output)")
                let results = answer["results"] as? [String: Any] ?? [:]
                #expect(results["uris"] as? [String] == ["file:///stub/\(method)"], "\(results)")
                // The frontend passes only the keys it knows (uris, choices, current_filter)
                // on to the app, so what the stub received is read from its log.
                let received =
                    fixture.stub.output.split(separator: "\n").last {
                        $0.hasPrefix("call \(method) ") && $0.contains(kind == "none" ? "{'" : "PDF")
                    }
                    .map(String.init) ?? ""
                #expect(received.contains("'Choose photos'"), "the title arrives: \(received)")
                if kind == "none" {
                    #expect(!received.contains("filters"), "\(received)")
                } else {
                    #expect(received.contains("('PDF', [(uint32 1, 'application/pdf')]), ('All files', [(0, '*')])"), "\(received)")
                }
            }
            #expect(fixture.noPendingRequest(of: "desktop"))
            #expect(fixture.app("desktop").isEmpty, "no app is made for dialogs that are not photo picks")
        }
    }

    @Test(.enabled(if: PickerBrowser.available)) func anImageDialogAnsweredInTheWebPicker() throws {
        try PortalFixture.with(frontend: true) { fixture in
            let client = try fixture.session.client(["portal", "OpenFile", "images"], name: "client")
            let request = try #require(fixture.pendingRequest(of: "desktop"), "\(client.output)")
            #expect(request["limit"] is NSNull)
            let picker = try BackgroundProcess(
                [
                    "/usr/bin/env", "XDG_CACHE_HOME=\(fixture.library.base)/cache", DaemonProcess.binary, "pick", "--no-open", "--catalog",
                    fixture.library.catalog, "desktop",
                ],
                output: fixture.library.base + "/pick.out")
            defer { picker.stop() }
            #expect(picker.waitForOutput(timeout: 20) { $0.contains("?token=") }, "\(picker.output)")
            let url = try #require(
                picker.output.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") }.map {
                    String($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            // One picker per request: a second one (the daemon's, say) stops at once.
            let second = run([DaemonProcess.binary, "pick", "--no-open", "--catalog", fixture.library.catalog, "desktop"])
            #expect(second.status == 0 && second.output.contains("is already open"), "\(second.output)")
            let seen = try PickerBrowserTests.browse(url, scenario: "pick", limit: 3)
            let picked = seen["picked"] as? [String] ?? []
            #expect(picked.count == 3, "\(seen)")
            // The page names the app, the dialog's title, and that the app is new (made with location removed).
            #expect(seen["title"] as? String == "Choose photos for desktop \u{2014} Choose photos", "\(seen)")
            let header = seen["header"] as? String ?? ""
            #expect(header.contains("location removed") && header.contains("desktop is new to photofs"), "\(header)")
            let answer = PortalSession.answer(of: client)
            #expect(answer["response"] as? Int == 0, "\(answer) \(client.output)")
            let uris = (answer["results"] as? [String: Any])?["uris"] as? [String] ?? []
            let indices = picked.compactMap { id in fixture.library.assets.firstIndex { $0.id == id } }
            fixture.expectPicked(uris, app: "desktop", indices: indices)
            #expect(picker.wait(timeout: 20) == 0, "\(picker.output)")
        }
    }
}
