import Foundation
import Glibc
import Testing

/// App views through the kernel, on the built daemon: three apps with different filters
/// and overlapping grants; each `apps/<app>` must list exactly granted ∩ filter ∩
/// existing, in selection order; every refusal has its errno and one-line reason and
/// leaves no trace. The filter truth comes from exiftool, not from photofs.
@Suite("access: app visibility through a real mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct VisibilityTests {
    /// The names `apps/<app>` lists, in readdir order (what `ls -f` shows).
    static func listing(_ fixture: AccessFixture, _ app: String) throws -> [[UInt8]] {
        try ByteFiles.list(Array(fixture.path("apps/" + app).utf8))
    }

    /// Expects `apps/<app>` to list exactly `expected`, in that order, each name denoting
    /// its asset and stat-ing to its size; any other catalogued file name or id is ENOENT.
    static func expectView(
        _ fixture: AccessFixture, _ app: String, _ expected: [AccessFixture.Asset], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let names = try listing(fixture, app)
        #expect(
            names.count == expected.count, "apps/\(app) lists \(names.count), expected \(expected.count)", sourceLocation: sourceLocation)
        for (name, asset) in zip(names, expected) {
            #expect(
                viewName(name, denotes: asset), "apps/\(app): \(String(decoding: name, as: UTF8.self)) is not \(asset.path)",
                sourceLocation: sourceLocation)
            let status = try ByteFiles.stat(Array(fixture.path("apps/" + app + "/").utf8) + name)
            #expect(Int(status.st_size) == asset.size, sourceLocation: sourceLocation)
        }
        let listed = Set(names)
        for asset in fixture.assets where !expected.contains(asset) {
            for guess in [asset.fileName, asset.id] where !listed.contains(Array(guess.utf8)) {
                let code = statErrno(fixture.path("apps/\(app)/\(guess)"))
                #expect(code == ENOENT, "apps/\(app)/\(guess) answered errno \(code)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func threeAppsSeeExactlyGrantedFilteredExisting() throws {
        let fixture = try AccessFixture(count: 120, seed: 7)
        var finished = false
        defer { if !finished { _ = fixture.finish() } }
        let mnt = fixture.mountpoint
        let all = fixture.assets
        let canon = all.filter { $0.make.lowercased().contains("canon") }
        let noGPS = all.filter { !$0.hasLocation }
        let withGPS = all.filter(\.hasLocation)
        let notCanon = all.filter { !$0.make.lowercased().contains("canon") }
        try #require(all.count == 120 && canon.count >= 6 && noGPS.count >= 8 && withGPS.count >= 4)
        print("library: \(all.count) assets, \(canon.count) Canon, \(withGPS.count) with GPS (exiftool)")

        func write(_ text: String) -> PickerFile.Outcome { PickerFile.write(mnt, text) }
        #expect(
            write(
                "app add photos --filter 'type:image'\napp add canon --filter 'make:canon' --limit 4\napp add private --filter '-has:location'\n"
            ).succeeded)

        // Overlapping grants, in a deliberate non-catalog order, through every kind of target:
        // ids, library-relative paths (quoted: one has a space), absolute paths in the mount.
        let spaced = try #require(all.first { $0.path.contains(" ") && !$0.hasLocation })
        let photos = [canon[3], withGPS[0], spaced, noGPS[5], canon[0], all[50], withGPS[3], noGPS[1]].uniqued()
        let photosTargets = photos.enumerated().map { index, asset in
            switch index % 3 {
            case 0: asset.id
            case 1: quoted(asset.path)
            default: quoted(fixture.path("library/folders/" + asset.path))
            }
        }
        #expect(write("select photos \(photosTargets.joined(separator: " "))\n").succeeded)
        let canonGrants = [canon[2], canon[0], canon[3]]
        #expect(write("select canon \(canonGrants.map(\.id).joined(separator: " "))\n").succeeded)
        let privateGrants = [noGPS[1], spaced, noGPS[6], noGPS[0]].uniqued()
        for asset in privateGrants { #expect(write("select private \(asset.id)\n").succeeded) }

        try Self.expectView(fixture, "photos", photos)
        try Self.expectView(fixture, "canon", canonGrants)
        try Self.expectView(fixture, "private", privateGrants)
        let rendered = PickerFile.read(mnt)
        #expect(PickerFile.selection(in: rendered, app: "photos") == photos.map(\.id))
        #expect(PickerFile.selection(in: rendered, app: "canon") == canonGrants.map(\.id))

        // Refusals: errno from write(2), the same errno and the reason over the picker
        // socket, and no trace.
        let refusals: [(String, Int32, String)] = [
            ("select canon \(canon[4].id) \(canon[5].id)\n", EDQUOT, "limit"),
            ("select canon \(notCanon[0].id)\n", EPERM, "filter"),
            ("select private \(withGPS[1].id)\n", EPERM, "filter"),
            ("select nosuchapp \(canon[4].id)\n", ENOENT, "nosuchapp"),
            ("select photos 000000000000\n", ENOENT, "000000000000"),
            ("select photos 'No Such Folder/IMG_0001.jpg'\n", ENOENT, "No Such Folder"),
            ("deselect nosuchapp \(canon[0].id)\n", ENOENT, "nosuchapp"),
            ("frobnicate photos\n", EINVAL, "frobnicate"),
            ("select\n", EINVAL, "app name"),
            ("select photos 'unterminated\n", EINVAL, "quote"),
            ("app add photos\n", EEXIST, "photos"),
            ("app add bad/name\n", EINVAL, "bad/name"),
            ("app add x --filter 'colour:red'\n", EINVAL, "colour"),
            ("app add x --limit -1\n", EINVAL, "--limit"),
            // Half-way failures: the earlier commands in the same write must not stay.
            ("select private \(noGPS[2].id)\nselect private \(noGPS[3].id)\nselect private \(withGPS[2].id)\n", EPERM, "line 3"),
            ("app add fresh\nselect fresh \(all[0].id)\nselect nosuchapp \(all[1].id)\n", ENOENT, "line 3"),
            ("clear photos\nselect canon \(canon[4].id)\nfrobnicate\n", EINVAL, "line 3"),
            ("deselect canon \(canon[0].id)\nselect canon \(canon[1].id) \(canon[4].id) \(canon[5].id)\n", EDQUOT, "line 2"),
        ]
        for (text, code, mention) in refusals {
            #expect(write(text).errno == code, "\(text.debugDescription) through .picker")
            let outcome = PickerSocket.send(mnt, text)
            #expect(outcome.errno == code, "\(text.debugDescription) → \(outcome)")
            #expect(
                !outcome.reason.isEmpty && !outcome.reason.contains("\n"),
                "reason is one line: \(outcome.reason.debugDescription)")
            #expect(outcome.reason.contains(mention), "reason \(outcome.reason.debugDescription) names \(mention)")
            #expect(PickerFile.read(mnt) == rendered, "a refused write left a trace: \(text.debugDescription)")
        }
        try Self.expectView(fixture, "photos", photos)
        try Self.expectView(fixture, "canon", canonGrants)
        try Self.expectView(fixture, "private", privateGrants)

        // The limit: one more fits, the next is refused.
        let canonFull = canonGrants + [canon[4]]
        #expect(write("select canon \(canon[4].id)\n").succeeded)
        #expect(write("select canon \(canon[5].id)\n").errno == EDQUOT)
        try Self.expectView(fixture, "canon", canonFull)

        // A filter change hides grants without deleting them; changing it back restores them in order.
        #expect(write("app set canon --filter 'make:canon -has:location'\n").succeeded)
        try Self.expectView(fixture, "canon", canonFull.filter { !$0.hasLocation })
        #expect(write("app set canon --filter 'make:nikon'\n").succeeded)
        try Self.expectView(fixture, "canon", [])
        #expect(PickerFile.selection(mnt, app: "canon") == canonFull.map(\.id))
        #expect(PickerFile.selection(mnt, app: "canon", visibleOnly: true) == [])
        #expect(write("app set canon --filter 'make:canon'\n").succeeded)
        try Self.expectView(fixture, "canon", canonFull)

        // Deselect keeps the order of the rest.
        #expect(write("deselect photos \(photos[2].id) \(quoted(photos[5].path))\n").succeeded)
        let photosAfter = photos.enumerated().filter { $0.offset != 2 && $0.offset != 5 }.map(\.element)
        try Self.expectView(fixture, "photos", photosAfter)

        // Deleting a granted file hides it (the view lists only files that exist): the
        // daemon's library watcher takes it out within seconds; a restart re-indexes too.
        let gone = photosAfter[1]
        let goneBytes = try ByteFiles.read(Array((fixture.library + "/" + gone.path).utf8))
        let goneStatus = try ByteFiles.stat(Array((fixture.library + "/" + gone.path).utf8))
        #expect(unlink(fixture.library + "/" + gone.path) == 0)
        let goneName = try #require(try Self.listing(fixture, "photos").first { viewName($0, denotes: gone) })
        // The kernel may still answer from what it cached (the mount has no OPEN round
        // trip) until the watcher catches up; after that the name is gone.
        let gonePath = fixture.path("apps/photos/" + String(decoding: goneName, as: UTF8.self))
        var hiddenLive = false
        for _ in 0..<30 where !hiddenLive {
            hiddenLive = !(try Self.listing(fixture, "photos")).contains(goneName)
            if !hiddenLive { usleep(100_000) }
        }
        let openCode = openErrno(gonePath)
        print("deleted file hidden while mounted (within 3 s): \(hiddenLive); open of it answered errno \(openCode)")
        #expect(hiddenLive, "a deleted granted file is still listed 3 s later (the daemon watches the library)")
        #expect(openCode == ENOENT, "a deleted file still opens once it left the listing")

        let growth = fixture.settledDescriptorGrowth()
        #expect(growth <= 0, "the daemon gained \(growth) descriptors")
        #expect(fixture.daemon.unmount() == 0, "daemon log: \(fixture.daemon.log)")
        try fixture.remount()
        try Self.expectView(fixture, "photos", photosAfter.filter { $0 != gone })
        try Self.expectView(fixture, "canon", canonFull)
        try Self.expectView(fixture, "private", privateGrants)
        // The grant outlives the file: the same content back, and it is visible again.
        try ByteFiles.write(Array((fixture.library + "/" + gone.path).utf8), goneBytes)
        _ = utimensat(AT_FDCWD, fixture.library + "/" + gone.path, [goneStatus.st_atim, goneStatus.st_mtim], 0)
        #expect(fixture.daemon.unmount() == 0)
        try fixture.remount()
        try Self.expectView(fixture, "photos", photosAfter)

        finished = true
        let end = fixture.finish()
        #expect(end.status == 0)
        #expect(end.descriptorGrowth <= 0, "the daemon gained \(end.descriptorGrowth) descriptors")
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each only once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
