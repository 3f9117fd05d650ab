import Glibc
import PhotoCore
import Testing

/// A directory's mtime and ctime move when its listing changes (file managers poll them:
/// the daemon cannot raise inotify events), and only then; through the kernel.
@Suite("Directory times through an in-process mount")
struct DirectoryTimesTests {
    static func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec) }

    @Test func aSelectMovesTheAppDirectoryTimesAndNothingElse() throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), testBytes(100, seed: 1))
        let b = try library.add(Array("b.jpg".utf8), testBytes(100, seed: 2))
        let apps = [App(name: "e", locationPolicy: .keep), App(name: "f", locationPolicy: .keep)]
        let mount = try InProcessMount(library: library, snapshot: library.snapshot(apps: apps, grants: ["e": [a.id], "f": [a.id]]))
        defer { mount.finish() }
        let before = try ByteFiles.stat(mount.path("apps/e"))
        let untouched = try ByteFiles.stat(mount.path("apps/f"))
        let all = try ByteFiles.stat(mount.path("library/all"))
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("a.jpg".utf8)])

        mount.install(library.snapshot(apps: apps, grants: ["e": [a.id, b.id], "f": [a.id]]))
        let after = try ByteFiles.stat(mount.path("apps/e"))
        #expect(Self.nanoseconds(after.st_mtim) > Self.nanoseconds(before.st_mtim))
        #expect(Self.nanoseconds(after.st_ctim) == Self.nanoseconds(after.st_mtim))
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("a.jpg".utf8), Array("b.jpg".utf8)])
        #expect(Self.nanoseconds(try ByteFiles.stat(mount.path("apps/f")).st_mtim) == Self.nanoseconds(untouched.st_mtim))
        #expect(Self.nanoseconds(try ByteFiles.stat(mount.path("library/all")).st_mtim) == Self.nanoseconds(all.st_mtim))

        mount.install(library.snapshot(apps: apps, grants: ["e": [b.id], "f": [a.id]]))
        let revoked = try ByteFiles.stat(mount.path("apps/e"))
        #expect(Self.nanoseconds(revoked.st_mtim) > Self.nanoseconds(after.st_mtim))
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("b.jpg".utf8)])
    }
}
