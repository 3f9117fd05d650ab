import Foundation
import FuseKit
import Glibc
import MediaFormats
import PhotoCore
import Testing

/// The file system through the kernel, mounted inside the test process.
@Suite("FuseKit in-process mount", .serialized, .enabled(if: FuseAvailability.available))
struct InProcessMountTests {
    @Test func libraryViewsServeExactBytesAndAttributes() throws {
        let library = TestLibrary()
        let big = testBytes(3 << 20 + 17, seed: 1)
        let asset = try library.add(Array("Trips/2024/big.jpg".utf8), big, taken: CaptureDate(year: 2024, month: 6, day: 15))
        try library.add(Array("small.jpg".utf8), testBytes(10, seed: 2))
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }

        #expect(try ByteFiles.list(mount.path("")) == [".picker", "library", "apps"].map { Array($0.utf8) })
        #expect(try ByteFiles.read(mount.path("library/all/big.jpg")) == big)
        #expect(try ByteFiles.read(mount.path("library/by-date/2024/06/15/big.jpg")) == big)
        #expect(try ByteFiles.read(mount.path("library/folders/Trips/2024/big.jpg")) == big)
        let status = try ByteFiles.stat(mount.path("library/all/big.jpg"))
        #expect(status.st_size == big.count)
        #expect(status.st_mode == S_IFREG | 0o444)
        #expect(Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec) == asset.mtimeNanoseconds)
        #expect(try ByteFiles.stat(mount.path("library")).st_mode == S_IFDIR | 0o500)
        #expect(try ByteFiles.stat(mount.path(".picker")).st_mode == S_IFREG | 0o600)
        #expect(try ByteFiles.stat(mount.path("library/folders/Trips")).st_mode == S_IFDIR | 0o555)
    }

    @Test func everythingButThePickerIsReadOnly() throws {
        let library = TestLibrary()
        try library.add(Array("a.jpg".utf8), [1, 2, 3])
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        let file = mount.path("library/all/a.jpg")
        // No OPEN round trip: a write-open of an asset may succeed, but its writes do not,
        // and a truncating open is refused (O_TRUNC arrives as a SETATTR).
        let writer = file.cPath { open($0, O_WRONLY) }
        #expect(writer >= 0 ? (Glibc.write(writer, "x", 1) == -1 && errno == EROFS) : errno == EROFS)
        if writer >= 0 { close(writer) }
        #expect(file.cPath { open($0, O_WRONLY | O_TRUNC) } == -1 && errno == EROFS)
        #expect(try ByteFiles.read(file) == [1, 2, 3])
        #expect(mount.path("library/all/new.jpg").cPath { open($0, O_WRONLY | O_CREAT, 0o644) } == -1 && errno == EROFS)
        #expect(ByteFiles.errnoOf { mount.path("library/all/d").cPath { mkdir($0, 0o755) } } == EROFS)
        #expect(ByteFiles.errnoOf { file.cPath { unlink($0) } } == EROFS)
        #expect(ByteFiles.errnoOf { file.cPath { from in mount.path("library/all/b.jpg").cPath { rename(from, $0) } } } == EROFS)
        #expect(ByteFiles.errnoOf { file.cPath { truncate($0, 0) } } == EROFS)
        #expect(ByteFiles.errnoOf { mount.path("library/all/missing.jpg").cPath { open($0, O_RDONLY) } } == ENOENT)
        #expect(ByteFiles.errnoOf { file.cPath { access($0, W_OK) } } == EROFS)
        #expect(ByteFiles.errnoOf { file.cPath { access($0, R_OK) } } == 0)
        #expect(ByteFiles.errnoOf { mount.path(".picker").cPath { access($0, W_OK) } } == 0)
    }

    @Test func oddNamesAreServedByteForByte() throws {
        let library = TestLibrary()
        let names: [[UInt8]] = [
            Array("with space.jpg".utf8), Array("new\nline.jpg".utf8), [0x6C, 0x61, 0x74, 0xE9, 0x2E, 0x6A, 0x70, 0x67],
            Array(String(repeating: "x", count: 251).utf8) + Array(".jpg".utf8),
        ]
        for (index, name) in names.enumerated() { try library.add(Array("odd/".utf8) + name, testBytes(100 + index, seed: UInt64(index))) }
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        #expect(Set(try ByteFiles.list(mount.path("library/folders/odd"))) == Set(names))
        for (index, name) in names.enumerated() {
            #expect(try ByteFiles.read(mount.path(Array("library/all/".utf8) + name)) == testBytes(100 + index, seed: UInt64(index)))
        }
    }

    @Test func appViewsRedactAndWithhold() throws {
        let library = TestLibrary()
        let original = testBytes(1000, seed: 3)
        let patched = RedactionPlans(strip: .patches([Patch(offset: 10, bytes: [0, 0, 0, 0])]), coarse: .withheld(reason: "x"))
        let shown = try library.add(Array("gps.jpg".utf8), original, redaction: patched)
        let hidden = try library.add(Array("unparsable.jpg".utf8), original, redaction: .notPlanned)
        let apps = [
            App(name: "strip"), App(name: "keep", locationPolicy: .keep), App(name: "picky", filter: "type:video", locationPolicy: .keep),
        ]
        let grants = ["strip": [shown.id, hidden.id], "keep": [hidden.id], "picky": [shown.id]]
        let mount = try InProcessMount(library: library, snapshot: library.snapshot(apps: apps, grants: grants))
        defer { mount.finish() }
        var expected = original
        expected.replaceSubrange(10..<14, with: [0, 0, 0, 0])
        #expect(try ByteFiles.list(mount.path("apps")) == [Array("keep".utf8), Array("picky".utf8), Array("strip".utf8)])
        #expect(try ByteFiles.list(mount.path("apps/strip")) == [Array("gps.jpg".utf8)])
        #expect(try ByteFiles.read(mount.path("apps/strip/gps.jpg")) == expected)
        #expect(try ByteFiles.read(mount.path("library/all/gps.jpg")) == original)
        #expect(throws: ByteFiles.Failure(errno: ENOENT)) { try ByteFiles.read(mount.path("apps/strip/unparsable.jpg")) }
        #expect(try ByteFiles.read(mount.path("apps/keep/unparsable.jpg")) == original)
        #expect(try ByteFiles.list(mount.path("apps/picky")) == [])
        #expect(try ByteFiles.stat(mount.path("apps/strip/gps.jpg")).st_ino != ByteFiles.stat(mount.path("library/all/gps.jpg")).st_ino)
    }

    @Test func revocationRefusesOpenDescriptorsAndDropsTheName() throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), testBytes(300_000, seed: 4))
        let b = try library.add(Array("b.jpg".utf8), testBytes(10, seed: 5))
        let apps = [App(name: "e", locationPolicy: .keep)]
        let mount = try InProcessMount(library: library, snapshot: library.snapshot(apps: apps, grants: ["e": [a.id, b.id]]))
        defer { mount.finish() }
        let path = mount.path("apps/e/a.jpg")
        let fd = path.cPath { open($0, O_RDONLY) }
        #expect(fd >= 0)
        defer { close(fd) }
        var first = [UInt8](repeating: 0, count: 4096)
        #expect(first.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 4096, 0) } == 4096)
        #expect(try ByteFiles.list(mount.path("apps/e")).count == 2)

        let changes = mount.install(library.snapshot(apps: apps, grants: ["e": [b.id]]))
        #expect(!changes.isEmpty)
        // Cached pages must not be served either: read a page that was read before.
        let again = first.withUnsafeMutableBytes { pread(fd, $0.baseAddress!, 4096, 0) }
        #expect(again == -1 && errno == EACCES)
        #expect(throws: ByteFiles.Failure(errno: ENOENT)) { try ByteFiles.stat(path) }
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("b.jpg".utf8)])
        #expect(try ByteFiles.read(mount.path("library/all/a.jpg")).count == 300_000)
    }

    @Test func changedSourceIsNeverServedStale() throws {
        let library = TestLibrary()
        let original = testBytes(5000, seed: 6)
        let asset = try library.add(Array("a.jpg".utf8), original)
        try library.add(Array("b.jpg".utf8), testBytes(3000, seed: 8))
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        #expect(try ByteFiles.read(mount.path("library/all/a.jpg")).count == 5000)
        let replacement = testBytes(7000, seed: 7)
        try ByteFiles.write(library.root + "/a.jpg", replacement)
        try ByteFiles.write(library.root + "/b.jpg", testBytes(4000, seed: 9))
        // Before the catalog notices, a read is answered from the pages the kernel kept
        // (the bytes that were listed) or refused; never new bytes under the old size.
        do {
            #expect(try ByteFiles.read(mount.path("library/all/a.jpg")) == original)
        } catch let failure as ByteFiles.Failure {
            #expect(failure.errno == ESTALE)
        }
        // A file whose pages were never read is refused: the daemon checks the source
        // against the catalog on every READ.
        #expect(throws: ByteFiles.Failure(errno: ESTALE)) { try ByteFiles.read(mount.path("library/all/b.jpg")) }
        // New content, new id (the catalog's fingerprint rule).
        library.remove(asset.id)
        library.replace(try library.record(Array("a.jpg".utf8), id: AssetID("00000000beef")!))
        mount.install(library.snapshot())
        #expect(try ByteFiles.stat(mount.path("library/all/a.jpg")).st_size == 7000)
        #expect(try ByteFiles.read(mount.path("library/all/a.jpg")) == replacement)
    }

    @Test func pickerWritesSelectAndFailedWritesGetTheirErrno() throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), [1])
        let initial = library.snapshot(apps: [App(name: "e", locationPolicy: .keep)])
        let mount = try InProcessMount(library: library, snapshot: initial, control: MemoryPicker(initial))
        defer { mount.finish() }
        let picker = mount.path(".picker")
        let fd = picker.cPath { open($0, O_RDWR | O_TRUNC) }
        #expect(fd >= 0)
        defer { close(fd) }
        let good = Array("select e \(a.id)\n".utf8)
        #expect(good.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) } == good.count)
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("a.jpg".utf8)])
        let bad = Array("select nosuchapp a.jpg\n".utf8)
        #expect(bad.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) } == -1 && errno == ENOENT)
        // The writer's descriptor still reads the state it was opened on, whole (not the
        // bytes it wrote, which the kernel kept in its pages); a fresh open reads the new one.
        let opened = String(decoding: PickerFile.readAll(fd), as: UTF8.self)
        #expect(opened.hasPrefix("# photofs picker") && !opened.contains("select e"), "\(opened.debugDescription)")
        let fresh = String(decoding: try ByteFiles.read(picker), as: UTF8.self)
        #expect(fresh.hasPrefix("# photofs picker") && fresh.contains("select e \(a.id)"))
    }

    @Test func manyReadsLeakNoDescriptorsAndParallelReadersAgree() throws {
        let library = TestLibrary()
        let contents = (0..<64).map { testBytes(20_000 + $0 * 977, seed: UInt64($0 + 100)) }
        for (index, bytes) in contents.enumerated() { try library.add(Array("many/f\(index).jpg".utf8), bytes) }
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        // Other suites run in this process at the same time: count only descriptors on
        // the library's files (the file system's own), not the process's total.
        func sourceDescriptors() -> Int {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
            return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + $0) }
                .filter { $0.hasPrefix(String(decoding: library.root, as: UTF8.self) + "/") }.count
        }
        // The count sees a descriptor on a library file (so a leak would show).
        let probe = open(String(decoding: library.root, as: UTF8.self) + "/many/f0.jpg", O_RDONLY | O_CLOEXEC)
        #expect(probe >= 0 && sourceDescriptors() == 1)
        close(probe)
        let failures = Mutex16()
        DispatchQueue.concurrentPerform(iterations: 16) { reader in
            for round in 0..<8 {
                let index = (reader * 8 + round) % contents.count
                let same = (try? ByteFiles.read(mount.path("library/all/f0.jpg"))) == contents[0]
                let other = (try? ByteFiles.read(mount.path("library/folders/many/f\(index).jpg"))) == contents[index]
                if !same || !other { failures.add() }
            }
        }
        #expect(failures.count == 0)
        #expect(sourceDescriptors() == 0, "descriptors left open on library files")
    }
}

/// A counter shared by parallel readers.
final class Mutex16: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
