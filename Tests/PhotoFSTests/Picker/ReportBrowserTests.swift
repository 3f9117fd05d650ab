import Foundation
import Glibc
import TestSupport
import Testing

/// `photofs report` in real headless Chromium (selenium), against a real mount whose
/// access log holds today's reads (made through the apps' views) and earlier days'
/// entries (added to the catalog before mounting: days a test cannot wait for). The
/// chart's bars must match `photofs log --json`; a Revoke click must take the photo from
/// the app's view; the page must hold no coordinate. Screenshots go to
/// `.build/report-screenshots/`.
@Suite("Privacy report page in a browser", .serialized, .enabled(if: PickerBrowser.available))
struct ReportBrowserTests {
    @Test func theChartMatchesTheLogAndRevokeTakesThePhotoAway() throws {
        let fixture = try AccessFixture(count: 24, seed: 7)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let names = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let u = fixture.assets.filter { names[$0.fileName] == 1 }
        try #require(u.count >= 8)
        let grants = "select editor \(u[0].id) \(u[1].id) \(u[2].id) \(u[3].id) \(u[4].id)\nselect viewer \(u[5].id) \(u[6].id)\n"
        #expect(
            PickerFile.write(fixture.mountpoint, "app add editor\napp add viewer\napp add idle\n" + grants + "select idle \(u[7].id)\n")
                .succeeded)
        #expect(fixture.daemon.unmount() == 0)
        try AccessLogReading.addHistory(
            catalog: fixture.catalog,
            [
                ("editor", u[0].id, 3), ("editor", u[1].id, 3), ("editor", u[2].id, 10), ("viewer", u[5].id, 1), ("viewer", u[6].id, 1),
                ("viewer", u[5].id, 20),
            ])
        try fixture.remount()
        for (app, asset) in [("editor", u[0]), ("editor", u[3]), ("viewer", u[6])] {
            #expect(try ByteFiles.read(Array(fixture.path("apps/\(app)/\(asset.fileName)").utf8)).count == asset.size)
        }
        let logged = try AccessLogReading.waitForLog(catalog: fixture.catalog) { entries in
            entries.filter { $0.day == AccessLogReading.today }.count == 3
        }
        #expect(logged.count == 9, "\(logged)")

        let shots = IntegrationLibrary.packageRoot + "/.build/report-screenshots"
        mkdir(shots, 0o755)
        let report = try BackgroundProcess(
            [
                "/usr/bin/env", "XDG_CACHE_HOME=\(fixture.base)/cache", DaemonProcess.binary, "report", "--no-open", "--catalog",
                fixture.catalog,
            ],
            output: fixture.base + "/report.out")
        defer { report.stop() }
        #expect(report.waitForOutput(timeout: 20) { $0.contains("?token=") }, "\(report.output)")
        let url = try #require(
            report.output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("http://127.0.0.1:") }.map(String.init))
        let result = run([PickerBrowser.python, IntegrationLibrary.packageRoot + "/Tests/Browser/report_browser.py", url, shots, "editor"])
        guard result.status == 0, let line = result.output.split(separator: "\n").last(where: { $0.hasPrefix("{") }) else {
            Issue.record("browser script failed (\(result.status)): \(result.output)")
            return
        }
        let seen = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
        let apps = seen["apps"] as? [String: [String: Any]] ?? [:]
        #expect(Set(apps.keys) == ["editor", "viewer", "idle"], "\(apps.keys)")

        // The bars: one per day of the last 30, each the number of distinct photos the log says
        // the app read that day, drawn in proportion to the tallest.
        let since = AccessLogReading.daysBack(29)
        let log = try AccessLogReading.log(catalog: fixture.catalog, ["--since", since])
        var expected: [String: [String: Set<String>]] = [:]
        for entry in log.entries { expected[entry.app, default: [:]][entry.day, default: []].insert(entry.asset) }
        for (app, shown) in apps {
            let bars = shown["bars"] as? [[String: Any]] ?? []
            #expect(bars.count == 30, "\(app)")
            #expect(bars.first?["day"] as? String == since && bars.last?["day"] as? String == AccessLogReading.today)
            let plot = shown["plot"] as? Double ?? 0
            let tallest = max(1, bars.compactMap { $0["count"] as? Int }.max() ?? 0)
            #expect(shown["max"] as? Int == tallest)
            for bar in bars {
                let day = bar["day"] as? String ?? "?"
                let count = bar["count"] as? Int ?? -1
                #expect(count == expected[app]?[day]?.count ?? 0, "\(app) \(day)")
                let height = bar["height"] as? Double ?? -1
                #expect(abs(height - Double(count) / Double(tallest) * plot) < 1, "\(app) \(day): \(height) px of \(plot)")
            }
        }
        let editorBars = (apps["editor"]?["bars"] as? [[String: Any]] ?? []).compactMap { $0["count"] as? Int }
        #expect(editorBars.filter { $0 > 0 }.count == 3 && editorBars.reduce(0, +) == 5, "\(editorBars)")
        #expect((apps["idle"]?["bars"] as? [[String: Any]] ?? []).allSatisfy { $0["count"] as? Int == 0 })

        // The last photos read, newest first, with their thumbnails; the grants in order.
        let recent = apps["editor"]?["recent"] as? [String] ?? []
        #expect(Set(recent.prefix(2)) == [u[0].id, u[3].id] && Set(recent) == Set([0, 1, 2, 3].map { u[$0].id }), "\(recent)")
        #expect(apps["editor"]?["thumbs_loaded"] as? Int == 4, "\(apps["editor"] ?? [:])")
        #expect(apps["editor"]?["grants"] as? [String] == (0..<5).map { u[$0].id })
        #expect(apps["idle"]?["grants"] as? [String] == [u[7].id])
        #expect((apps["idle"]?["recent"] as? [String])?.isEmpty == true)

        // Revoke: through the daemon, like `photofs deselect`: gone from the view at once.
        #expect(seen["revoked"] as? String == u[0].id)
        #expect(seen["grants_after"] as? [String] == (1..<5).map { u[$0].id }, "\(seen["notice"] ?? "")")
        #expect(seen["notice"] as? String == "Revoked 1 photo from editor.")
        #expect(statErrno(fixture.path("apps/editor/" + u[0].fileName)) == ENOENT)
        #expect(PickerFile.selection(fixture.mountpoint, app: "editor") == (1..<5).map { u[$0].id })

        // No coordinate in the page or in what it was sent; no script error.
        let coordinates = fixture.assets.flatMap(\.coordinates)
        if ExternalTools.exiftool != nil { #expect(!coordinates.isEmpty, "the fixture has located photos") }
        for key in ["html", "api"] {
            let text = (seen[key] as? String ?? "").replacingOccurrences(of: "><", with: ">\n<").replacingOccurrences(
                of: "},{", with: "},\n{")
            #expect(!text.isEmpty)
            #expect(LogScan.problems(in: text, coordinates: coordinates).isEmpty, "\(key)")
        }
        let printed = log.text.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(
            printed.count > 100 && (seen["api"] as? String)?.contains("\"log\":" + printed + ",") == true,
            "the page gets what photofs log --json prints")
        #expect((seen["console_errors"] as? [String] ?? ["?"]).isEmpty, "\(seen["console_errors"] ?? "")")
        #expect((seen["done"] as? String)?.hasPrefix("The report is closed") == true)
        #expect(report.wait(timeout: 20) == 0, "\(report.output)")
        finished = true
        #expect(fixture.finish().status == 0)
    }
}
