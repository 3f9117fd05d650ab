import Foundation
import Glibc
import Testing

/// Rule grants, exclusions and expiry through a real mount: the daemon's views, the
/// kernel's caches and the catalog.
@Suite(
    "grants: rules, exclusions and expiry through a real mount", .serialized,
    .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct GrantTermsMountTests {
    /// The names in a directory of the mount, sorted.
    static func names(_ path: String) throws -> [String] {
        try ByteFiles.list(Array(path.utf8)).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// `photofs app show APP --json` over the catalog file (what is stored, not what is served).
    static func stored(_ fixture: AccessFixture, _ app: String) throws -> [String: Any] {
        let shown = run([DaemonProcess.binary, "app", "show", "--json", "--catalog", fixture.catalog, app])
        try #require(shown.status == 0, "app show: \(shown.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(shown.output.utf8)) as? [String: Any])
    }

    /// The ids of the assets a directory of the mount lists (names may carry an id suffix).
    static func listedIDs(_ path: String, among assets: [AccessFixture.Asset]) throws -> Set<String> {
        let names = try ByteFiles.list(Array(path.utf8))
        return Set(assets.filter { asset in names.contains { viewName($0, denotes: asset) } }.map(\.id))
    }

    /// Polls `condition` every 20 ms for up to `seconds`; returns whether it held.
    static func eventually(_ seconds: Double, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            usleep(20_000)
        } while Date() < deadline
        return try condition()
    }

    @Test func aRuleFollowsTheLibraryAndAnExclusionHoldsAcrossRemount() throws {
        let fixture = try AccessFixture(count: 14, seed: 11)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        // Photos of another generated library: new content, so new assets, with known makes.
        let extra = fixture.base + "/extra"
        #expect(run([DaemonProcess.binary, "generate", "--count", "8", "--seed", "12", extra]).status == 0)
        let extraFacts = ExifFacts.read(library: extra)
        let makes = Set(fixture.assets.map(\.make).filter { !$0.isEmpty })
        let make = try #require(makes.sorted().first { m in extraFacts.values.contains { $0.make == m } }, "no shared make")
        let matching = try #require(extraFacts.first { $0.value.make == make }?.key)
        let other = try #require(
            extraFacts.first { !$0.value.make.lowercased().contains(make.lowercased()) && $0.key.hasSuffix(".jpg") }?.key)
        let ruled = fixture.assets.filter { $0.make.lowercased().contains(make.lowercased()) }
        let nameCounts = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        try #require(ruled.count >= 2)
        // The one to exclude: a name of its own, so its absence is a plain ENOENT.
        let excluded = try #require(ruled.first { nameCounts[$0.fileName] == 1 })

        let view = fixture.path("apps/viewer")
        #expect(PickerFile.write(fixture.mountpoint, "app add viewer --location keep\nselect viewer --rule 'make:\"\(make)\"'\n").succeeded)
        let first = try Self.names(view)
        #expect(try Self.listedIDs(view, among: ruled) == Set(ruled.map(\.id)), "make \(make): \(first) for \(ruled.map(\.path))")
        #expect(first.count == ruled.count)

        // A new file that matches shows in the app view as soon as it shows in library/all;
        // one that does not match shows in library/all only.
        for (source, name) in [(matching, "new-match.jpg"), (other, "new-other.jpg")] {
            let bytes = try ByteFiles.read(Array((extra + "/" + source).utf8))
            try ByteFiles.write(Array((fixture.library + "/" + name).utf8), bytes)
        }
        let arrived = try Self.eventually(15) {
            let all = try Self.names(fixture.path("library/all"))
            return all.contains("new-match.jpg") && all.contains("new-other.jpg")
        }
        try #require(arrived, "the new files never showed in library/all")
        let listed = try Self.names(view)
        #expect(listed.contains("new-match.jpg"), "\(listed)")
        #expect(!listed.contains("new-other.jpg"))
        #expect(statErrno(view + "/new-other.jpg") == ENOENT)
        #expect(try ByteFiles.read(Array((view + "/new-match.jpg").utf8)).count > 0)

        // Deselecting one asset the rule covers records an exclusion: it leaves the view,
        // and .picker and app show list it.
        #expect(PickerFile.write(fixture.mountpoint, "deselect viewer \(excluded.id)\n").succeeded)
        #expect(statErrno(view + "/" + excluded.fileName) == ENOENT)
        #expect(!(try Self.names(view)).contains(excluded.fileName))
        let text = PickerFile.read(fixture.mountpoint)
        #expect(text.contains("select viewer --rule 'make:\"\(make)\"'\n"), "\(text)")
        #expect(text.contains("deselect viewer \(excluded.id)  # excluded from the rules: \(excluded.path)\n"), "\(text)")
        #expect(try Self.stored(fixture, "viewer")["exclusions"] as? [String] == [excluded.id])

        // Across a remount (a new daemon reading the catalog) the rule and the exclusion hold.
        #expect(fixture.daemon.unmount() == 0)
        try fixture.remount()
        let again = try Self.names(view)
        #expect(!again.contains(excluded.fileName))
        #expect(again.contains("new-match.jpg") && !again.contains("new-other.jpg"))
        #expect(try Self.listedIDs(view, among: ruled) == Set(ruled.map(\.id)).subtracting([excluded.id]))
        #expect(again.count == ruled.count)

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }

    @Test func expiryRevokesWithinASecondWithoutOtherActivityAlsoForAnOpenDescriptor() throws {
        let fixture = try AccessFixture(count: 10, seed: 21)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let nameCounts = Dictionary(grouping: fixture.assets, by: \.fileName).mapValues(\.count)
        let unique = fixture.assets.filter { nameCounts[$0.fileName] == 1 }
        try #require(unique.count >= 3)
        let (a, b, c) = (unique[0], unique[1], unique[2])
        let view = fixture.path("apps/viewer")
        let lifetime = 2.0
        let before = Date()
        let write = PickerFile.write(
            fixture.mountpoint,
            """
            app add viewer --location keep
            app add other --location keep --grants-expire 2s
            select viewer \(a.id) --for 2s
            select viewer \(b.id)
            select other \(c.id)

            """)
        let written = Date()
        try #require(write.succeeded, "\(write)")
        #expect(try Self.names(view) == [a.fileName, b.fileName].sorted())
        let fd = open(view + "/" + a.fileName, O_RDONLY | O_CLOEXEC)
        try #require(fd >= 0)
        var closed = false
        defer { if !closed { close(fd) } }
        #expect(RevocationTests.preadErrno(fd) == 0)
        #expect(PickerFile.read(fixture.mountpoint).contains("select viewer \(a.id) --until "))
        // Still granted shortly before the expiry.
        let early = before.addingTimeInterval(lifetime - 0.5).timeIntervalSinceNow
        if early > 0 { usleep(useconds_t(early * 1_000_000)) }
        if Date() < before.addingTimeInterval(lifetime - 0.2) { #expect(RevocationTests.preadErrno(fd) == 0) }
        // Nothing touches the mount from here until 1 s after the latest possible expiry.
        let promise = written.addingTimeInterval(lifetime + 1).timeIntervalSinceNow
        if promise > 0 { usleep(useconds_t(promise * 1_000_000)) }
        #expect(RevocationTests.preadErrno(fd) == EACCES, "the open descriptor still reads after expiry")
        #expect(statErrno(view + "/" + a.fileName) == ENOENT)
        #expect(try Self.names(view) == [b.fileName])
        #expect(try Self.names(fixture.path("apps/other")) == [])
        // Gone from the catalog, not only hidden.
        #expect(try Self.stored(fixture, "viewer")["selected"] as? Int == 1)
        #expect(try Self.stored(fixture, "other")["selected"] as? Int == 0)
        #expect(!PickerFile.read(fixture.mountpoint).contains(a.id))

        close(fd)
        closed = true
        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }
}
