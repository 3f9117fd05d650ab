import Foundation
import Glibc
import Testing

/// What nobody can abuse and nothing can hang, through a real mount: a waiting request
/// blocks no one else and dies with its reader, an abandoned request is withdrawn, a
/// refused request says why, a pick grants and answers together, and `.picker` takes each
/// `write(2)` whole and never shows a writer's bytes to a reader.
@Suite("Requests and the control file that nothing can hang", .serialized, .enabled(if: FuseAvailability.available))
struct RequestChannelTests {
    /// A mounted 6-photo library with app `editor` (images, limit 4) holding asset 0.
    static func withMount(_ body: (IntegrationLibrary, DaemonProcess) throws -> Void) throws {
        let library = try IntegrationLibrary(prefix: "photofs-hang")
        defer { library.remove() }
        let daemon = try DaemonProcess(library: library.library, mountpoint: library.mountpoint, catalog: library.catalog)
        defer { daemon.unmount() }
        try library.photofs(["app", "add", "editor", "--filter", "type:image", "--limit", "4"])
        try library.photofs(["select", "editor", library.assets[0].id])
        try body(library, daemon)
    }

    /// Seconds `argv` took, and its exit status (nil when it was still running after 5 s
    /// and had to be killed).
    static func timed(_ argv: [String]) -> (seconds: Double, status: Int32?) {
        let started = Date()
        guard let process = try? BackgroundProcess(argv, output: "/dev/null") else { return (0, nil) }
        let status = process.wait(timeout: 5)
        if status == nil { process.stop() }
        return (Date().timeIntervalSince(started), status)
    }

    /// The pending requests' lines, waiting up to `timeout` seconds until `condition` holds.
    static func requests(_ mountpoint: String, timeout: Double = 10, until condition: ([String]) -> Bool) -> [String] {
        let deadline = Date().addingTimeInterval(timeout)
        var lines: [String] = []
        repeat {
            let text = (try? String(contentsOfFile: mountpoint + "/.requests", encoding: .utf8)) ?? ""
            lines = text.split(separator: "\n").map(String.init)
            if condition(lines) { return lines }
            usleep(50_000)
        } while Date() < deadline
        return lines
    }

    @Test func aWaitingReaderBlocksNobodyAndDiesAtOnceAndItsRequestIsWithdrawn() throws {
        try Self.withMount { library, daemon in
            let view = library.mountpoint + "/apps/editor"
            let request = view + "/.request"
            let reader = try BackgroundProcess(
                ["/bin/sh", "-c", "echo 'media=image limit=2' > '\(request)' && exec cat '\(request)'"],
                output: library.base + "/reader.out")
            defer { reader.stop() }
            let pending = Self.requests(library.mountpoint) { !$0.isEmpty }
            try #require(pending.count == 1, "the request waits: \(pending)")
            usleep(300_000)  // the reader is inside read(2) now
            #expect(reader.wait(timeout: 0) == nil, "cat waits for the answer")
            // Nobody else waits behind it: stat, a listing, a second writer (refused at once).
            for argv in [["/usr/bin/stat", request], ["/bin/ls", "-la", view], ["/usr/bin/stat", "-L", view + "/.request"]] {
                let run = Self.timed(argv)
                #expect(run.status == 0 && run.seconds < 1, "\(argv) took \(run.seconds) s, status \(String(describing: run.status))")
            }
            let second = Self.timed(["/bin/sh", "-c", "echo 'limit=1' > '\(request)'"])
            #expect(second.status != nil && second.status != 0 && second.seconds < 1, "a second request is refused at once: \(second)")
            let reread = Self.timed(["/usr/bin/timeout", "-s", "KILL", "3", "/bin/cat", request + ""])
            _ = reread  // a second reader may wait; the point is that it can be killed (timeout -s KILL ends it)
            #expect(reread.seconds < 4, "a second reader killed by timeout is gone: \(reread.seconds) s")
            // SIGKILL ends the waiting reader at once.
            let killed = Date()
            kill(reader.pid, SIGKILL)
            #expect(reader.wait(timeout: 1) != nil, "the killed reader is gone within 1 s")
            #expect(Date().timeIntervalSince(killed) < 1)
            // Nobody is left to read the answer: the request is withdrawn within 2 s.
            let left = Self.requests(library.mountpoint, timeout: 2.5) { $0.isEmpty }
            #expect(left.isEmpty, "withdrawn: \(left)")
            #expect(daemon.log.contains("withdrawn"), "the daemon says so")
            // The file is idle again: a new request is taken.
            #expect(RequestFileTests.write("limit=1\n", to: request) == 0)
        }
    }

    @Test func aRefusedRequestSaysWhyAndIsLoggedAFewTimesAMinute() throws {
        try Self.withMount { library, daemon in
            let request = library.mountpoint + "/apps/editor/.request"
            #expect(RequestFileTests.write("media=image limit=lots\n", to: request) == EINVAL)
            let reason = (try? String(contentsOfFile: request, encoding: .utf8)) ?? ""
            #expect(reason.hasPrefix("refused: bad value 'lots' for limit at column"), "the app reads why: \(reason.debugDescription)")
            for _ in 0..<300 { _ = RequestFileTests.write("frobnicate=1\n", to: request) }
            let unknown = (try? String(contentsOfFile: request, encoding: .utf8)) ?? ""
            #expect(unknown.contains("unknown request key 'frobnicate' at column 1"), "\(unknown)")
            usleep(200_000)
            let lines = daemon.log.split(separator: "\n").filter { $0.contains("request of app editor refused") }
            #expect(lines.count <= 5 && lines.count >= 1, "\(lines.count) log lines for 301 refusals")
            // A good request still goes through, and its answer replaces the reason.
            #expect(RequestFileTests.write("limit=1\n", to: request) == 0)
        }
    }

    @Test func aPickGrantsAndAnswersTogetherOrNeither() throws {
        try Self.withMount { library, daemon in
            let request = library.mountpoint + "/apps/editor/.request"
            #expect(RequestFileTests.write("mode=add limit=3\n", to: request) == 0)
            let pending = Self.requests(library.mountpoint) { !$0.isEmpty }
            let id = try #require(pending.first?.split(separator: " ").first.map { String($0.dropFirst(3)) }.flatMap { Int($0) })
            let before = PickerFile.read(library.mountpoint)
            // One photo does not exist: nothing is granted and the request still waits.
            let refused = DaemonChannelCall.send(
                library.mountpoint,
                [
                    "pick": [
                        "app": "editor", "request": id, "assets": [library.assets[2].id, "f" + String(repeating: "0", count: 63)],
                        "replace": false,
                    ]
                ])
            #expect(refused.errno != 0, "refused: \(refused)")
            #expect(PickerFile.read(library.mountpoint) == before, "no grant landed")
            #expect(Self.requests(library.mountpoint) { !$0.isEmpty }.count == 1, "the request still waits")
            // A good pick grants and answers in one call: the app reads its names.
            let granted = DaemonChannelCall.send(
                library.mountpoint,
                ["pick": ["app": "editor", "request": id, "assets": [library.assets[2].id, library.assets[1].id], "replace": false]])
            #expect(granted.errno == 0, "\(granted)")
            let answer = (try? String(contentsOfFile: request, encoding: .utf8)) ?? ""
            let lines = answer.split(separator: "\n").map(String.init)
            #expect(lines.count == 3 && lines.first == "selected 2", "\(answer)")
            // The names the app sees (a clash in the view may add a suffix), in pick order.
            let view = library.mountpoint + "/apps/editor/"
            let stems = [2, 1].map { String(library.assets[$0].path.split(separator: "/").last?.split(separator: ".").first ?? "") }
            for (line, stem) in zip(lines.dropFirst(), stems) {
                #expect(access(view + line, R_OK) == 0 && line.hasPrefix(stem), "\(line) is asset \(stem) in the view")
            }
            #expect(PickerFile.read(library.mountpoint).contains(library.assets[2].id))
            // Answered once: the same pick again is refused and grants nothing more.
            #expect(DaemonChannelCall.send(library.mountpoint, ["cancel": ["app": "editor", "request": id]]).errno == ENOENT)
            _ = daemon
        }
    }

    /// What the catalog says app `app` holds (read past the mount, so no page of `.picker`
    /// is cached by asking).
    static func held(_ library: IntegrationLibrary, _ app: String) -> String {
        run([DaemonProcess.binary, "app", "show", "--json", app, "--catalog", library.catalog]).output
    }

    @Test func aPickerWriteIsWholeAtAnyOffsetAndReadersSeeOnlyTheRendering() throws {
        try Self.withMount { library, _ in
            let picker = library.mountpoint + "/.picker"
            // A change first, so that the next write meets a rendering none of whose pages
            // the kernel holds (the case where a cached write is cut at the first page's end).
            #expect(PickerFile.write(library.mountpoint, "select editor \(library.assets[4].id)\n").succeeded)
            let before = Self.held(library, "editor")
            // 4,037 bytes at offset 100, crossing a page: the lines of the first page are
            // good, the one after the page boundary is not.
            var good = ""
            while good.utf8.count < 4_010 { good += "select editor \(library.assets[1].id)\n" }
            let bad = good + "frobnicate\n"
            let padded = bad + String(repeating: "#", count: max(0, 4_037 - bad.utf8.count - 1)) + "\n"
            let writer = open(picker, O_WRONLY | O_CLOEXEC)
            try #require(writer >= 0)
            defer { close(writer) }
            let refused = Array(padded.utf8).withUnsafeBytes { pwrite(writer, $0.baseAddress, $0.count, 100) }
            let code = errno
            #expect(refused < 0 && code == EINVAL, "refused whole: \(refused) \(code)")
            #expect(Self.held(library, "editor") == before, "no part of it ran")
            let reader = open(picker, O_RDONLY | O_CLOEXEC)
            try #require(reader >= 0)
            defer { close(reader) }
            let rendered = PickerFile.read(library.mountpoint)
            // O_APPEND, 9 KB, one write: runs whole.
            var appended = ""
            while appended.utf8.count < 9_000 { appended += "# a comment line to make the write long enough\n" }
            appended += "select editor \(library.assets[3].id)\n"
            let appender = open(picker, O_WRONLY | O_APPEND | O_CLOEXEC)
            try #require(appender >= 0)
            defer { close(appender) }
            let wrote = Array(appended.utf8).withUnsafeBytes { Glibc.write(appender, $0.baseAddress, $0.count) }
            #expect(wrote == appended.utf8.count, "one write, one transaction: \(wrote) errno \(errno)")
            #expect(PickerFile.read(library.mountpoint).contains(library.assets[3].id))
            // The descriptor opened before reads the rendering it was opened on, with no writer's byte in it.
            var bytes = [UInt8](repeating: 0, count: 1 << 16)
            let count = bytes.withUnsafeMutableBytes { pread(reader, $0.baseAddress, $0.count, 0) }
            #expect(count >= 0 && String(decoding: bytes[0..<max(0, count)], as: UTF8.self) == rendered)
        }
    }
}

/// One call on a mount's daemon channel, as JSON, from outside.
enum DaemonChannelCall {
    static func send(_ mountpoint: String, _ call: [String: Any]) -> PickerFile.Outcome {
        guard let data = try? JSONSerialization.data(withJSONObject: call) else { return PickerFile.Outcome(errno: -1, reason: "encode") }
        return PickerSocket.exchange(mountpoint, Array(data))
    }
}
