import Foundation
import Glibc
import Testing

/// The picker's one-time link is a secret: while `photofs pick` and a picker the daemon
/// started by itself run, another local user who reads every `/proc/*/cmdline` and
/// `/proc/*/environ` it may read finds no token, cannot read the private file the browser
/// was opened on, and a link whose token was spent grants nothing.
@Suite("The picker link stays secret", .serialized, .enabled(if: FuseAvailability.available && UnixUsers.canCreate))
struct PickerLinkSecrecyTests {
    /// A stand-in browser: records the address it was given, then stays up for a while, as
    /// a browser does (so that its own arguments can be scanned too).
    static func fakeBrowser(in base: String) -> (script: String, record: String) {
        let record = base + "/browser-argv"
        let script = base + "/browser"
        let text = "#!/bin/sh\nprintf '%s\\n' \"$@\" > '\(record).tmp' && mv '\(record).tmp' '\(record)'\nexec sleep 20\n"
        let made = FileManager.default.createFile(atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
        precondition(made, "cannot write the fake browser \(script)")
        return (script, record)
    }

    /// What another user finds: how many readable `/proc/*/cmdline` and `/proc/*/environ`
    /// files contain `token`, and whether it could read `file`.
    static func scan(as user: UnixUsers.User, for token: String, file: String) -> String {
        let program = """
            import glob, os, sys
            token = sys.argv[1].encode()
            hits = []
            mine = '/proc/%d/' % os.getpid()  # this scanner was given the token to look for
            for path in glob.glob('/proc/[0-9]*/cmdline') + glob.glob('/proc/[0-9]*/environ'):
                if path.startswith(mine):
                    continue
                try:
                    with open(path, 'rb') as f:
                        if token in f.read():
                            hits.append(path)
                except OSError:
                    pass
            try:
                open(sys.argv[2], 'rb').read()
                readable = 'readable'
            except OSError:
                readable = 'unreadable'
            print(len(hits), readable, *hits)
            """
        return run(
            [
                "/usr/bin/setpriv", "--reuid", String(user.uid), "--regid", String(user.gid), "--clear-groups", "--", "/usr/bin/python3",
                "-c",
                program, token, file,
            ]
        ).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Plays the person's browser and a thief with the same link: the first GET spends the
    /// token, the second gets 403, a POST without the cookie gets 403; then the person
    /// cancels, which ends the picker. Returns the status codes seen, one per line.
    static func useTheLink(_ url: String) -> String {
        let program = """
            import http.client, json, sys, urllib.parse
            url = urllib.parse.urlsplit(sys.argv[1])
            def call(method, path, headers={}, body=None):
                c = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
                c.request(method, path, body=body, headers=headers)
                r = c.getresponse()
                data = r.read()
                return r.status, r.getheader('Set-Cookie') or '', data
            first = call('GET', url.path + '?' + url.query, {'Host': url.netloc})
            stolen = call('GET', url.path + '?' + url.query, {'Host': url.netloc})
            add = call('POST', '/api/add', {'Host': url.netloc, 'Content-Type': 'application/json', 'Origin': 'http://' + url.netloc},
                       json.dumps({'ids': []}))
            cookie = first[1].split(';')[0]
            session = json.loads(call('GET', '/api/session', {'Host': url.netloc, 'Cookie': cookie})[2])
            cancel = call('POST', '/api/cancel', {'Host': url.netloc, 'Cookie': cookie, 'Content-Type': 'application/json',
                          'X-Photofs-Csrf': session['csrf'], 'Origin': 'http://' + url.netloc}, '{}')
            print(first[0], stolen[0], add[0], cancel[0])
            """
        return run(["/usr/bin/python3", "-c", program, url]).output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The address in the redirect file the stand-in browser was opened on.
    static func address(inRedirect record: String, timeout: Double = 30) -> (file: String, url: String)? {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let argv = try? String(contentsOfFile: record, encoding: .utf8), let first = argv.split(separator: "\n").first,
                first.hasPrefix("file://")
            {
                let file = String(first.dropFirst("file://".count))
                let page = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                if let start = page.range(of: "url="), let end = page[start.upperBound...].firstIndex(of: "\"") {
                    return (file, String(page[start.upperBound..<end]).replacingOccurrences(of: "&amp;", with: "&"))
                }
            }
            usleep(100_000)
        }
        return nil
    }

    @Test func noOtherUserFindsTheTokenAndASpentLinkGrantsNothing() throws {
        let thief = try UnixUsers.create("pfsthief")
        defer { UnixUsers.remove(thief) }
        let library = try IntegrationLibrary(prefix: "photofs-secret")
        defer { library.remove() }
        chmod(library.base, 0o755)
        let runtime = library.base + "/runtime"
        mkdir(runtime, 0o700)
        let browser = Self.fakeBrowser(in: library.base)
        let environment = ["DISPLAY": ":99", "BROWSER": browser.script, "XDG_RUNTIME_DIR": runtime]
        let daemon = try DaemonProcess(
            library: library.library, mountpoint: library.mountpoint, catalog: library.catalog, environment: environment)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor", "--filter", "type:image"])
        // The app asks; the daemon, which has a display, starts the picker by itself.
        let request = library.mountpoint + "/apps/editor/.request"
        let app = try BackgroundProcess(
            ["/bin/sh", "-c", "echo 'limit=1' > '\(request)' && exec cat '\(request)'"], output: library.base + "/app.out")
        defer { app.stop() }
        let opened = try #require(Self.address(inRedirect: browser.record), "the daemon's picker opened the browser: \(daemon.log)")
        let token = try #require(opened.url.split(separator: "=").last.map(String.init))
        #expect(token.count == 64)
        var status = stat()
        #expect(stat(opened.file, &status) == 0 && status.st_mode & 0o777 == 0o600, "the redirect file is private")
        let found = Self.scan(as: thief, for: token, file: opened.file)
        #expect(found == "0 unreadable", "another user finds the token nowhere: \(found)")
        let codes = Self.useTheLink(opened.url)
        #expect(codes == "303 403 403 200", "first use, stolen link, cookie-less add, cancel: \(codes)")
        #expect(access(opened.file, F_OK) != 0, "the redirect file is gone once the token was spent")
        #expect(app.wait(timeout: 10) == 0 && app.output == "cancelled\n", "the app was answered by the cancel: \(app.output)")

        // The same for `photofs pick` started by the person.
        unlink(browser.record)
        let pick = try BackgroundProcess(
            [
                "/usr/bin/env", "DISPLAY=:99", "BROWSER=\(browser.script)", "XDG_RUNTIME_DIR=\(runtime)", DaemonProcess.binary, "pick",
                "--catalog", library.catalog, "editor",
            ],
            output: library.base + "/pick.out")
        defer { pick.stop() }
        let second = try #require(Self.address(inRedirect: browser.record), "photofs pick opened the browser: \(pick.output)")
        let secondToken = try #require(second.url.split(separator: "=").last.map(String.init))
        #expect(Self.scan(as: thief, for: secondToken, file: second.file) == "0 unreadable")
        #expect(!pick.output.contains(secondToken), "the link is not printed when a browser was opened")
        #expect(Self.useTheLink(second.url) == "303 403 403 200")
        #expect(pick.wait(timeout: 10) == 0, "the picker ended with the cancel: \(pick.output)")
    }
}
