import Foundation
import Glibc
import Testing

/// An app confined by `photofs run` (bubblewrap, only its view bound) asks for photos
/// through its `.request` file and waits; the owner answers through `.requests`.
@Suite("App pick requests through a real mount", .serialized, .enabled(if: SandboxAvailability.available))
struct RequestFileTests {
    /// A mounted 6-photo library with app `editor` (images, limit 4) holding asset 0, a home
    /// for the sandbox, and `body` run with them; always unmounts.
    static func withMount(_ body: (IntegrationLibrary, String) throws -> Void) throws {
        let library = try IntegrationLibrary(prefix: "photofs-request")
        defer { library.remove() }
        let home = library.base + "/home"
        mkdir(home, 0o700)
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor", "--filter", "type:image", "--limit", "4"])
        try library.photofs(["select", "editor", library.assets[0].id])
        try body(library, home)
    }

    /// Starts `script` under `photofs run editor` in the background.
    static func app(_ library: IntegrationLibrary, home: String, _ script: String, name: String) throws -> BackgroundProcess {
        try BackgroundProcess(
            [
                "/usr/bin/env", "HOME=\(home)", DaemonProcess.binary, "run", "--mountpoint", library.mountpoint, "editor", "--", "/bin/sh",
                "-c", script,
            ],
            output: library.base + "/\(name).out")
    }

    /// The pending request lines of the mount, waiting up to 10 s for one to appear.
    static func pendingLines(_ mountpoint: String) -> [String] {
        for _ in 0..<200 {
            let text = (try? String(contentsOfFile: mountpoint + "/.requests", encoding: .utf8)) ?? ""
            if !text.isEmpty { return text.split(separator: "\n").map(String.init) }
            usleep(50_000)
        }
        return []
    }

    static func write(_ text: String, to path: String) -> Int32 {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        guard fd >= 0 else { return errno }
        defer { close(fd) }
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count ? 0 : errno
    }

    @Test func theAppAsksWaitsAndReadsTheOwnersAnswer() throws {
        try Self.withMount { library, home in
            let m = library.mountpoint
            let script = """
                test -f "$PHOTOFS_DIR/.request" && ! ls -A "$PHOTOFS_DIR" | grep -qx .request && echo present-unlisted
                echo 'media=image limit=2' > "$PHOTOFS_DIR/.request" && echo asked
                (echo 'media=video' > "$PHOTOFS_DIR/.request") 2>/dev/null || echo busy
                cat "$PHOTOFS_DIR/.request"
                """
            let app = try Self.app(library, home: home, script, name: "app")
            let lines = Self.pendingLines(m)
            #expect(lines.count == 1)
            let line = try #require(lines.first)
            #expect(line.hasPrefix("id=") && line.contains(" app=editor limit=2 mode=add ordered=yes") && line.hasSuffix(" media=image"))
            let id = String(line.split(separator: " ")[0].dropFirst(3))
            // The owner's view of it: `photofs requests` and its JSON.
            let listed = run([DaemonProcess.binary, "requests", "--mountpoint", m])
            #expect(
                listed.status == 0 && listed.output.hasPrefix("editor (#\(id) on \(m)): up to 2, image, add, waiting "), "\(listed.output)")
            let json = run([DaemonProcess.binary, "requests", "--json", "--mountpoint", m])
            let objects = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]] ?? []
            #expect(objects.count == 1)
            #expect(objects.first?["app"] as? String == "editor" && objects.first?["limit"] as? Int == 2)
            #expect(objects.first?["media"] as? String == "image" && objects.first?["mode"] as? String == "add")
            #expect(objects.first?["id"] as? Int == Int(id))
            // The app's read is blocked until the owner answers.
            #expect(app.wait(timeout: 1) == nil)
            // The owner grants two photos (one transaction), then answers with them in that order.
            try library.photofs(["select", "editor", library.assets[3].id, library.assets[1].id])
            #expect(Self.write("answer editor \(id) \(library.assets[3].id) \(library.assets[1].id)\n", to: m + "/.requests") == 0)
            #expect(app.wait(timeout: 20) == 0, "\(app.output)")
            // The names are the view's (a clash of file names adds an id suffix), in the answered order.
            let printed = app.output.split(separator: "\n").map(String.init)
            #expect(Array(printed.prefix(4)) == ["present-unlisted", "asked", "busy", "selected 2"], "\(app.output)")
            let answered = Array(printed.dropFirst(4))
            let view = IntegrationLibrary.names(m + "/apps/editor")
            #expect(answered.count == 2 && answered.allSatisfy(view.contains), "\(answered) not in \(view)")
            for (name, index) in zip(answered, [3, 1]) {
                let stem = String(library.assets[index].path.split(separator: "/").last!.split(separator: ".").first!)
                #expect(name.hasPrefix(stem), "\(name) is not asset \(index)")
            }
            // Settled: nothing pending, a second answer is refused.
            #expect(((try? String(contentsOfFile: m + "/.requests", encoding: .utf8)) ?? "x").isEmpty)
            #expect(Self.write("cancel editor \(id)\n", to: m + "/.requests") == ENOENT)
        }
    }

    @Test func cancelledAndExpiredAndRefusedRequests() throws {
        try Self.withMount { library, home in
            let m = library.mountpoint
            let cancelled = try Self.app(
                library, home: home, "echo limit=1 > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "cancel")
            let id = try #require(Self.pendingLines(m).first?.split(separator: " ").first?.dropFirst(3))
            #expect(Self.write("cancel editor \(id)\n", to: m + "/.requests") == 0)
            #expect(cancelled.wait(timeout: 20) == 0)
            #expect(cancelled.output == "cancelled\n")
            #expect(IntegrationLibrary.names(m + "/apps/editor").filter { !$0.hasPrefix(".") }.count == 1)

            let expired = try Self.app(
                library, home: home, "echo timeout=1 > \"$PHOTOFS_DIR/.request\"; cat \"$PHOTOFS_DIR/.request\"", name: "expire")
            #expect(expired.wait(timeout: 20) == 0)
            #expect(expired.output == "expired\n")

            // At its limit (4 of 4), adding is refused; replacing is not.
            try library.photofs(["select", "editor", library.assets[1].id, library.assets[2].id, library.assets[3].id])
            let refused = try Self.app(
                library, home: home,
                """
                (echo 'media=gif' > "$PHOTOFS_DIR/.request") 2>/dev/null || echo malformed
                (echo 'limit=1' > "$PHOTOFS_DIR/.request") 2>/dev/null || echo full
                echo 'limit=2 mode=replace timeout=1' > "$PHOTOFS_DIR/.request" && echo replace-ok
                cat "$PHOTOFS_DIR/.request"
                """, name: "refused")
            #expect(refused.wait(timeout: 20) == 0)
            #expect(refused.output == "malformed\nfull\nreplace-ok\nexpired\n")
        }
    }

    @Test func anAppCannotReachTheOwnersListOrAnswerItself() throws {
        try Self.withMount { library, home in
            let m = library.mountpoint
            let script = """
                echo limit=1 > "$PHOTOFS_DIR/.request"
                cat '\(m)/.requests' >/dev/null 2>&1 && echo reached-list
                (echo 'answer editor 1 x' > '\(m)/.requests') 2>/dev/null && echo answered-itself
                (echo 'select editor \(library.assets[2].id)' > "$PHOTOFS_DIR/.request") 2>/dev/null && echo wrote-select
                echo done
                """
            let app = try Self.app(library, home: home, script, name: "attack")
            #expect(app.wait(timeout: 20) == 0)
            #expect(app.output == "done\n", "\(app.output)")
            // Still only its one grant, and the request it wrote is still waiting for the owner.
            #expect(IntegrationLibrary.names(m + "/apps/editor").filter { !$0.hasPrefix(".") }.count == 1)
            #expect(Self.pendingLines(m).count == 1)
        }
    }
}
