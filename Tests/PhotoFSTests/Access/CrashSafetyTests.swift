import Foundation
import Glibc
import Synchronization
import Testing

/// Crash safety of grants: a stream of single-asset selects, one `write(2)` each, with the
/// daemon killed (SIGKILL) in the middle. After a remount every select whose write had
/// returned success is there, in order, both in `.picker` and in `photofs app show --json`.
@Suite("access: grants survive kill -9", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct CrashSafetyTests {
    /// 100 apps × 100 assets: 10,000 distinct (app, asset) grants in the stream.
    static let appCount = 100
    static let assetCount = 100
    /// The kill comes at the 5,000th acknowledged select, or after this many seconds if the
    /// stream is slower than that: every write rebuilds all views, so a write costs time in
    /// proportion to the grants already made (a debug daemon reaches about 1,200 in 30 s).
    /// `PHOTOFS_CRASH_SECONDS` raises the budget for a run by hand.
    static let killAfterSeconds = ProcessInfo.processInfo.environment["PHOTOFS_CRASH_SECONDS"].flatMap(Double.init) ?? 30

    @Test func everyAcknowledgedSelectSurvivesKill9() throws {
        let fixture = try AccessFixture(count: Self.assetCount, seed: 21)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let assets = fixture.assets
        try #require(assets.count == Self.assetCount)
        let apps = (0..<Self.appCount).map { String(format: "app%03d", $0) }
        #expect(PickerFile.write(mnt, apps.map { "app add \($0)\n" }.joined()).succeeded)

        let stream = (0..<(Self.appCount * Self.assetCount)).map { (app: apps[$0 % Self.appCount], asset: assets[$0 / Self.appCount]) }
        let acknowledged = Mutex<[(app: String, asset: AccessFixture.Asset)]>([])
        let killed = Atomic(false)
        let start = Date()
        let pid = fixture.daemon.pid
        let killer = Thread {
            while !killed.load(ordering: .acquiring) {
                if acknowledged.withLock({ $0.count }) >= stream.count / 2 || Date().timeIntervalSince(start) > Self.killAfterSeconds {
                    // A moment later, so the kill lands while a write is in flight.
                    usleep(UInt32.random(in: 0...3_000))
                    kill(pid, SIGKILL)
                    killed.store(true, ordering: .releasing)
                }
                usleep(500)
            }
        }
        killer.start()
        var failure = PickerFile.Outcome(errno: 0, reason: "")
        for item in stream {
            let outcome = PickerFile.write(mnt, "select \(item.app) \(item.asset.id)\n")
            guard outcome.succeeded else {
                failure = outcome
                break
            }
            acknowledged.withLock { $0.append(item) }
        }
        killed.store(true, ordering: .releasing)
        while !killer.isFinished { usleep(1000) }
        let done = acknowledged.withLock { $0 }
        print(
            "kill -9 after \(done.count) acknowledged selects of \(stream.count) (\(String(format: "%.1f", Date().timeIntervalSince(start))) s); the write in flight failed with \(failure)"
        )
        #expect(done.count > 0 && done.count < stream.count, "the kill did not land inside the stream")
        #expect([ENOTCONN, ECONNABORTED, ENODEV, EIO].contains(failure.errno), "in-flight write: \(failure)")

        fixture.daemon.crash()
        run(["/usr/bin/env", "fusermount3", "-u", mnt])
        try fixture.remount()

        // Every acknowledged select, in order per app; at most the one in flight besides.
        let expected = Dictionary(grouping: done, by: \.app).mapValues { $0.map(\.asset.id) }
        let rendered = PickerFile.read(mnt)
        var missing = 0
        var extra = 0
        var outOfOrder: [String] = []
        for app in apps {
            let have = PickerFile.selection(in: rendered, app: app)
            let want = expected[app] ?? []
            let present = Set(have)
            missing += want.filter { !present.contains($0) }.count
            if Array(have.prefix(want.count)) != want { outOfOrder.append(app) }
            extra += max(0, have.count - want.count)
        }
        print(
            "after remount: \(missing) acknowledged selects missing from .picker, \(extra) unacknowledged present (the write in flight may have committed)"
        )
        #expect(missing == 0)
        #expect(outOfOrder.isEmpty, "selection order differs for \(outOfOrder)")
        #expect(extra <= 1)
        var showMismatches: [String] = []
        for app in apps {
            let shown = run([DaemonProcess.binary, "app", "show", "--json", "--catalog", fixture.catalog, app])
            let object = try? JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any]
            let ids = (object?["assets"] as? [[String: Any]])?.compactMap { $0["id"] as? String } ?? []
            let want = expected[app] ?? []
            if Array(ids.prefix(want.count)) != want { showMismatches.append(app) }
        }
        #expect(showMismatches.isEmpty, "photofs app show disagrees for \(showMismatches)")
        // The views show them too.
        let firstApp = try #require(expected.keys.sorted().first)
        #expect(try ByteFiles.list(Array(fixture.path("apps/" + firstApp).utf8)).count >= (expected[firstApp]?.count ?? 0))

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }
}
