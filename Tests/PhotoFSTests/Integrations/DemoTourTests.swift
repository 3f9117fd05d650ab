import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs demo` ends with a guided tour of pick, run, requests and the report, and its
/// commands work as printed: they are run here through a shell, copied from the output.
@Suite("photofs demo's guided tour", .serialized, .enabled(if: SandboxAvailability.available))
struct DemoTourTests {
    @Test func theTourWorksAsTyped() throws {
        let base = temporaryDirectory("photofs-demo-tour")
        defer { run(["/bin/rm", "-rf", base]) }
        let demo = run(["/usr/bin/env", "TMPDIR=\(base)", DaemonProcess.binary, "demo"])
        #expect(demo.status == 0, "\(demo.output)")
        let lines = demo.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let mountpoint = try #require(
            lines.first { $0.hasPrefix("photofs unmount ") }.map { String($0.dropFirst("photofs unmount ".count)) })
        defer { run([DaemonProcess.binary, "unmount", mountpoint]) }
        let tour = Array(lines.drop { $0 != "A guided tour:" })
        for word in ["photofs pick ", "photofs run ", ".request", "photofs requests ", "photofs log ", "photofs report "] {
            #expect(tour.contains { $0.contains(word) }, "the tour lacks \(word): \(demo.output)")
        }
        let binDirectory = (DaemonProcess.binary as NSString).deletingLastPathComponent
        func shell(_ line: String) -> (status: Int32, output: String) {
            run(["/usr/bin/env", "PATH=\(binDirectory):/usr/bin:/bin", "HOME=\(base)", "/bin/sh", "-c", line])
        }
        // The demo's own steps make the app the tour uses.
        for line in lines where line.hasPrefix("echo '") && line.contains(".picker") { #expect(shell(line).status == 0, "\(line)") }
        // 2: the sandboxed program lists the app's two photos.
        let runLine = try #require(tour.first { $0.hasPrefix("photofs run ") && !$0.hasSuffix("&") })
        let listed = shell(runLine)
        #expect(listed.status == 0 && listed.output.contains("IMG_0001.jpg") && listed.output.contains("IMG 0002.jpg"), "\(listed.output)")
        // 3: the app's request waits, and `photofs requests` shows it.
        let askLine = try #require(tour.first { $0.hasPrefix("photofs run ") && $0.hasSuffix("&") })
        let asking = try BackgroundProcess(
            ["/usr/bin/env", "PATH=\(binDirectory):/usr/bin:/bin", "HOME=\(base)", "/bin/sh", "-c", String(askLine.dropLast()) + "& wait"],
            output: base + "/ask.out")
        defer { asking.stop() }
        let requestsLine = try #require(tour.first { $0.hasPrefix("photofs requests ") })
        var pending = ""
        for _ in 0..<100 {
            pending = shell(requestsLine).output
            if pending.contains("editor") { break }
            usleep(100_000)
        }
        #expect(pending.contains("editor") && pending.contains("up to 2"), "\(pending)")
        // 4: the log answers.
        let logLine = try #require(tour.first { $0.hasPrefix("photofs log ") })
        #expect(shell(logLine).status == 0)
    }
}
