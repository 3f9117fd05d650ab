import Foundation
import Glibc
import MediaFormats
import PhotoCatalog
import PhotoCore
import PhotoHashing
import TestSupport
import Testing

/// The shipped binary, mounted for real: `photofs mount -f` with a readiness pipe.
@Suite("photofs daemon mount", .serialized, .enabled(if: FuseAvailability.available && DaemonProcess.binaryExists))
struct DaemonMountTests {
    /// The corpus beside the package (or `$PHOTOFS_CORPUS`).
    static let corpus = SharedCorpus.directory

    static var corpusPresent: Bool {
        Skip.unless(corpus != nil, "corpus mount test: no corpus at ../shared/corpus and PHOTOFS_CORPUS unset")
    }

    /// A generated library of `count` photos in a new temporary directory.
    static func generatedLibrary(count: Int, seed: Int = 1) -> String {
        let base = temporaryDirectory("photofs-gen")
        let library = base + "/library"
        let result = run([DaemonProcess.binary, "generate", "--count", String(count), "--seed", String(seed), library])
        precondition(result.status == 0, result.output)
        return library
    }

    /// Every regular file below `root`, relative paths as bytes.
    static func files(below root: String) -> [[UInt8]] {
        var found: [[UInt8]] = []
        func walk(_ relative: [UInt8]) {
            let directory = Array(root.utf8) + (relative.isEmpty ? [] : [UInt8(ascii: "/")] + relative)
            guard let names = try? ByteFiles.list(directory) else { return }
            for name in names {
                let child = relative.isEmpty ? name : relative + [UInt8(ascii: "/")] + name
                let status = try? ByteFiles.stat(Array(root.utf8) + [UInt8(ascii: "/")] + child)
                if let status, status.st_mode & S_IFMT == S_IFDIR { walk(child) } else if status != nil { found.append(child) }
            }
        }
        walk([])
        return found
    }

    @Test(.enabled(if: DaemonMountTests.corpusPresent)) func corpusCopyIsServedWholeAndExact() throws {
        let corpus = try #require(Self.corpus)
        let base = temporaryDirectory("photofs-corpus")
        defer { run(["/bin/rm", "-rf", base]) }
        let library = base + "/library"
        #expect(run(["/bin/cp", "-r", corpus, library]).status == 0)
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite")
        let snapshot = try Catalog.open(at: base + "/catalog.sqlite").snapshot()
        #expect(snapshot.assets.count > 100)
        let all = try ByteFiles.list(Array((mountpoint + "/library/all").utf8))
        #expect(all.count == snapshot.assets.count)
        let byDate = Self.files(below: mountpoint + "/library/by-date")
        let folders = Set(Self.files(below: mountpoint + "/library/folders"))
        #expect(byDate.count == snapshot.assets.count)
        #expect(folders.count == snapshot.assets.count)
        let fdsBefore = daemon.descriptorCount
        let realLibrary = MountTableProbe.realPath(library)
        var mismatches: [String] = []
        for asset in snapshot.assets {
            let source = try ByteFiles.read(Array((library + "/").utf8) + asset.path.bytes)
            let viaFolders = try ByteFiles.read(Array((mountpoint + "/library/folders/").utf8) + asset.path.bytes)
            if SHA256.hash(viaFolders) != SHA256.hash(source) { mismatches.append(asset.path.display) }
            #expect(folders.contains(asset.path.bytes))
        }
        // Every file in all/ and by-date/ is one asset's exact bytes, each asset once.
        let expected = Dictionary(
            grouping: snapshot.assets.map { try! SHA256.hex(SHA256.hash(ByteFiles.read(Array((library + "/").utf8) + $0.path.bytes))) },
            by: { $0 }
        ).mapValues(\.count)
        let inAll = Dictionary(
            grouping: try all.map { try SHA256.hex(SHA256.hash(ByteFiles.read(Array((mountpoint + "/library/all/").utf8) + $0))) },
            by: { $0 }
        ).mapValues(\.count)
        let inDates = Dictionary(
            grouping: try byDate.map { try SHA256.hex(SHA256.hash(ByteFiles.read(Array((mountpoint + "/library/by-date/").utf8) + $0))) },
            by: { $0 }
        ).mapValues(\.count)
        #expect(mismatches == [])
        #expect(inAll == expected)
        #expect(inDates == expected)
        #expect(daemon.settledDescriptors(below: realLibrary, expected: [realLibrary]) == [realLibrary])
        #expect(daemon.descriptorCount <= fdsBefore + 8)
        #expect(run(["/usr/bin/find", mountpoint, "-type", "f"]).output.split(separator: "\n").count >= 3 * snapshot.assets.count)
        let copy = base + "/copy"
        #expect(run(["/bin/cp", "-r", mountpoint + "/library/folders", copy]).status == 0)
        #expect(run(["/usr/bin/diff", "-r", library, copy]).status == 0 || snapshot.assets.count < Self.files(below: library).count)
        #expect(run(["/bin/ls", "-lR", mountpoint]).status == 0)
        #expect(daemon.unmount() == 0)
    }

    @Test func oddNamesParallelReadersAndNoLeakedDescriptors() throws {
        let library = Self.generatedLibrary(count: 24)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let originals = Self.files(below: library).sorted { $0.lexicographicallyPrecedes($1) }
        let odd: [[UInt8]] = [
            Array("odd/with space.jpg".utf8), Array("odd/new\nline.jpg".utf8), Array("odd/lat".utf8) + [0xE9, 0xFF] + Array(".jpg".utf8),
            Array("odd/".utf8) + Array(String(repeating: "n", count: 251).utf8) + Array(".jpg".utf8),
        ]
        ByteFiles.mkdirs(Array((library + "/odd").utf8))
        for (from, to) in zip(originals, odd) {
            let source = Array((library + "/").utf8) + from
            let target = Array((library + "/").utf8) + to
            #expect(source.cPath { f in target.cPath { rename(f, $0) } } == 0)
        }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite")
        for name in odd {
            let source = try ByteFiles.read(Array((library + "/").utf8) + name)
            #expect(try ByteFiles.read(Array((mountpoint + "/library/folders/").utf8) + name) == source)
            #expect(try ByteFiles.read(Array((mountpoint + "/library/all/").utf8) + Array(name.dropFirst(4))) == source)
        }
        let files = Self.files(below: library)
        let fdsBefore = daemon.descriptorCount
        let wrong = Mutex16()
        DispatchQueue.concurrentPerform(iterations: 16) { reader in
            for round in 0..<10 {
                let name = files[(reader * 3 + round) % files.count]
                let shared = files[0]
                let ok =
                    (try? ByteFiles.read(Array((mountpoint + "/library/folders/").utf8) + name))
                    == (try? ByteFiles.read(Array((library + "/").utf8) + name))
                    && (try? ByteFiles.read(Array((mountpoint + "/library/folders/").utf8) + shared))
                        == (try? ByteFiles.read(Array((library + "/").utf8) + shared))
                if !ok { wrong.add() }
            }
        }
        #expect(wrong.count == 0)
        let realLibrary = MountTableProbe.realPath(library)
        #expect(daemon.settledDescriptors(below: realLibrary, expected: [realLibrary]) == [realLibrary])
        #expect(daemon.descriptorCount <= fdsBefore + 8)
        #expect(daemon.unmount() == 0)
    }

    /// Polls `condition` until it holds or `seconds` pass; how long it took, or nil.
    static func within(_ seconds: Double, _ condition: () -> Bool) -> Double? {
        let start = ContinuousClock.now
        while ContinuousClock.now - start < .milliseconds(Int(seconds * 1000)) {
            if condition() {
                return Double((ContinuousClock.now - start).components.attoseconds) / 1e18
                    + Double((ContinuousClock.now - start).components.seconds)
            }
            usleep(20_000)
        }
        return condition() ? seconds : nil
    }

    @Test func liveChangesShowWithinTwoSeconds() throws {
        let library = Self.generatedLibrary(count: 6, seed: 3)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let extra = Self.generatedLibrary(count: 2, seed: 99)
        defer { run(["/bin/rm", "-rf", (extra as NSString).deletingLastPathComponent]) }
        let spare = Self.files(below: extra)
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite")
        let folders = Array((mountpoint + "/library/folders/").utf8)
        let all = Array((mountpoint + "/library/all").utf8)
        let before = try ByteFiles.list(all).count
        // Listed twice: on this private mount the kernel keeps every listing it read.
        let inFolder = try ByteFiles.list(folders).count
        #expect(try ByteFiles.list(folders).count == inFolder)

        // Add: a new photo appears in all/ and folders/.
        let added = try ByteFiles.read(Array((extra + "/").utf8) + spare[0])
        try ByteFiles.write(Array((library + "/new photo.jpg").utf8), added)
        // Each view follows within the 2 s (the kernel drops its cached listings
        // asynchronously, so all/ may lag folders/ by a moment).
        #expect(Self.within(2) { (try? ByteFiles.read(folders + "new photo.jpg")) == added } != nil)
        #expect(Self.within(2) { (try? ByteFiles.list(all).count) == before + 1 } != nil)
        #expect(Self.within(2) { (try? ByteFiles.list(folders))?.contains(Array("new photo.jpg".utf8)) == true } != nil)
        #expect(try ByteFiles.list(folders).count == inFolder + 1)

        // Modify in place: new bytes and size, never the old ones after that.
        let stat0 = try ByteFiles.stat(folders + "new photo.jpg")
        let replacement = try ByteFiles.read(Array((extra + "/").utf8) + spare[1])
        try ByteFiles.write(Array((library + "/new photo.jpg").utf8), replacement)
        #expect(Self.within(2) { (try? ByteFiles.read(folders + "new photo.jpg")) == replacement } != nil)
        #expect(try ByteFiles.stat(folders + "new photo.jpg").st_size == replacement.count)
        #expect(try ByteFiles.stat(folders + "new photo.jpg").st_ino != stat0.st_ino)

        // Rename: the old name goes, the new one comes, all/ keeps the count.
        #expect(rename(library + "/new photo.jpg", library + "/renamed.jpg") == 0)
        #expect(
            Self.within(2) {
                (try? ByteFiles.read(folders + "renamed.jpg")) == replacement && (try? ByteFiles.stat(folders + "new photo.jpg")) == nil
            } != nil)
        #expect(Self.within(2) { (try? ByteFiles.list(all).count) == before + 1 } != nil)

        // Delete: gone from every view.
        #expect(unlink(library + "/renamed.jpg") == 0)
        #expect(Self.within(2) { (try? ByteFiles.list(all).count) == before } != nil)
        #expect(Self.within(2) { (try? ByteFiles.list(folders).count) == inFolder } != nil)
        #expect(throws: ByteFiles.Failure(errno: ENOENT)) { try ByteFiles.stat(folders + "renamed.jpg") }
        #expect(daemon.unmount() == 0)
    }

    /// The mount has no OPEN round trip, so only the kernel checks an open: a raw
    /// `-o allow_other` must still come with `default_permissions`.
    @Test(.enabled(if: getuid() == 0)) func allowOtherAlwaysGetsKernelPermissionChecks() throws {
        let library = Self.generatedLibrary(count: 2, seed: 4)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let daemon = try DaemonProcess(
            library: library, mountpoint: mountpoint, catalog: base + "/catalog.sqlite", extra: ["-o", "allow_other"])
        let line = (try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.split(separator: " ").dropFirst(4).first.map(String.init) == mountpoint }
        #expect(line?.contains("allow_other") == true, "mountinfo: \(line ?? "no line")")
        #expect(line?.contains("default_permissions") == true, "mountinfo: \(line ?? "no line")")
        #expect(daemon.unmount() == 0)
    }

    @Test func refusesBadMountpoints() throws {
        let library = Self.generatedLibrary(count: 3)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let catalog = ["--catalog", base + "/catalog.sqlite"]
        let inside = library + "/mnt"
        mkdir(inside, 0o755)
        let nonEmpty = base + "/full"
        mkdir(nonEmpty, 0o755)
        try Data().write(to: URL(fileURLWithPath: nonEmpty + "/x"))
        let cases: [(String, String, Int32, String)] = [
            (library, inside, 2, "inside the library"),
            (library, base + "/missing", 4, "does not exist"),
            (library, nonEmpty, 2, "not empty"),
            (library, base, 2, "inside the mountpoint"),
        ]
        for (lib, mnt, code, message) in cases {
            let result = run([DaemonProcess.binary, "mount", "-f"] + catalog + [lib, mnt])
            #expect(result.status == code, "\(mnt): \(result.output)")
            #expect(result.output.contains(message), "\(result.output)")
        }
    }

    @Test func backgroundMountSignalAndCrashRecovery() throws {
        let library = Self.generatedLibrary(count: 5)
        let base = (library as NSString).deletingLastPathComponent
        defer { run(["/bin/rm", "-rf", base]) }
        let mountpoint = base + "/mnt"
        mkdir(mountpoint, 0o755)
        let catalog = base + "/catalog.sqlite"
        // Background: the parent returns 0 only once the mount answers.
        let started = run([DaemonProcess.binary, "mount", "--quiet", "--catalog", catalog, library, mountpoint])
        #expect(started.status == 0, "\(started.output)")
        #expect(try ByteFiles.list(Array((mountpoint + "/library/all").utf8)).count == 5)
        #expect(run([DaemonProcess.binary, "status"]).output.contains(mountpoint))
        #expect(run([DaemonProcess.binary, "unmount", mountpoint]).status == 0)

        // Foreground + SIGTERM: clean unmount, exit 0.
        let daemon = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        #expect(daemon.signal(SIGTERM) == 0)
        #expect(MountTableProbe.isMounted(mountpoint) == false)

        // kill -9 leaves a stale mount; the next mount says so, clears it and mounts.
        let crashed = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        crashed.crash()
        #expect(ByteFiles.errnoOf { Array(mountpoint.utf8).cPath { access($0, F_OK) } } == ENOTCONN)
        #expect(run([DaemonProcess.binary, "status"]).output.contains("stale"))
        let again = try DaemonProcess(library: library, mountpoint: mountpoint, catalog: catalog)
        #expect(again.log.contains("stale mount"))
        #expect(try ByteFiles.list(Array((mountpoint + "/library/all").utf8)).count == 5)
        #expect(try Catalog.open(at: catalog).snapshot().assets.count == 5)
        #expect(again.unmount() == 0)
    }
}

/// Reads /proc/mounts for one mountpoint.
enum MountTableProbe {
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func isMounted(_ mountpoint: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n").contains {
            $0.split(separator: " ").dropFirst().first.map(String.init) == mountpoint
        }
    }
}
