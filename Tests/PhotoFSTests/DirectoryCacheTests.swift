import Foundation
import Glibc
import PhotoCore
import Testing

@testable import FuseKit

/// Listings on a private mount, where the kernel opens directories without OPENDIR and
/// caches every listing: a cached listing follows library and access changes (the kernel's
/// copy is dropped, an empty one included), and READDIR cookies need no open handle
/// (seeking back in a listing of thousands of names reads the same names again).
@Suite("FuseKit listings without OPENDIR", .serialized, .enabled(if: FuseAvailability.available))
struct DirectoryCacheTests {
    /// The names of an open directory stream from where it stands, without `.` and `..`.
    static func names(_ directory: OpaquePointer, limit: Int = .max) -> [[UInt8]] {
        DirectoryListingTests.entries(directory, limit: limit).map(\.0)
    }

    static func sorted(_ names: [[UInt8]]) -> [String] { names.map { String(decoding: $0, as: UTF8.self) }.sorted() }

    @Test func aPrivateMountReadsDirectoriesWithoutOpendir() throws {
        let library = TestLibrary()
        try library.add(Array("f/a.jpg".utf8), [1])
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        #expect(try ByteFiles.list(mount.path("library/folders/f")) == [Array("a.jpg".utf8)])
        let withoutOpen = mount.fileSystem.directoriesWithoutOpen.load(ordering: .relaxed)
        #expect(withoutOpen, "the kernel offered no-opendir and the mount took it")
    }

    /// Root only: `allow_other` needs it (or `user_allow_other`). Also when only the mount
    /// options say so (an embedder that left `othersMayEnter` unset).
    @Test(.enabled(if: getuid() == 0), arguments: [true, false])
    func aMountOthersMayEnterKeepsOpendir(configurationKnows: Bool) throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), [1])
        let apps = [App(name: "e", locationPolicy: .keep)]
        let mount = try InProcessMount(
            library: library, snapshot: library.snapshot(apps: apps, grants: ["e": [a.id]]), allowOther: true,
            configurationKnows: configurationKnows)
        defer { mount.finish() }
        #expect(try ByteFiles.list(mount.path("apps")) == [Array("e".utf8)])
        #expect(try ByteFiles.list(mount.path("apps/e")) == [Array("a.jpg".utf8)])
        let withoutOpen = mount.fileSystem.directoriesWithoutOpen.load(ordering: .relaxed)
        #expect(!withoutOpen, "a mount other users may enter must answer OPENDIR: its root and apps/ differ by caller")
    }

    @Test func aCachedFolderShowsLiveAddsAndDeletes() throws {
        let library = TestLibrary()
        for name in ["a", "b", "c"] { try library.add(Array("f/\(name).jpg".utf8), [1]) }
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        let folder = mount.path("library/folders/f")
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg"])

        // Views changed but the kernel not told: the listing comes from its cache.
        let added = try library.add(Array("f/d.jpg".utf8), [2])
        let changes = mount.views.install(library.snapshot())
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg"], "the second listing was not cached")
        // Told, it drops it: the added file shows.
        mount.fileSystem.forget(changes)
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg", "d.jpg"])

        library.remove(added.id)
        mount.install(library.snapshot())
        #expect(Self.sorted(try ByteFiles.list(folder)) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(statErrno(String(decoding: folder, as: UTF8.self) + "/d.jpg") == ENOENT)
    }

    @Test func aCachedEmptyAppViewShowsASelectAndLosesADeselect() throws {
        let library = TestLibrary()
        let a = try library.add(Array("a.jpg".utf8), [1])
        let apps = [App(name: "e", locationPolicy: .keep)]
        let mount = try InProcessMount(library: library, snapshot: library.snapshot(apps: apps))
        defer { mount.finish() }
        let view = mount.path("apps/e")
        // Listed twice while empty: the kernel holds an empty listing.
        #expect(try ByteFiles.list(view).isEmpty)
        #expect(try ByteFiles.list(view).isEmpty)
        mount.install(library.snapshot(apps: apps, grants: ["e": [a.id]]))
        #expect(try ByteFiles.list(view) == [Array("a.jpg".utf8)])
        #expect(try ByteFiles.list(view) == [Array("a.jpg".utf8)])
        mount.install(library.snapshot(apps: apps))
        #expect(try ByteFiles.list(view).isEmpty, "a deselected name is still listed")
        #expect(try ByteFiles.list(mount.path("apps")) == [Array("e".utf8)])
    }

    @Test func seekingBackInALongListingReadsTheSameNamesAgain() throws {
        let library = try DirectoryListingTests.library()
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        let expected = Set((0..<DirectoryListingTests.count).map(DirectoryListingTests.name) + [Array("sub".utf8)])
        // First round: nothing cached, every page is a READDIR at the cookie the kernel
        // kept; second round: the kernel's cached listing.
        for round in 0..<2 {
            let directory = try #require(mount.path("library/folders/big").cPath { opendir($0) })
            defer { closedir(directory) }
            let head = Self.names(directory, limit: 700)
            let mark = telldir(directory)
            let middle = Self.names(directory, limit: 900)
            seekdir(directory, mark)
            let again = Self.names(directory, limit: 900)
            #expect(again == middle, "round \(round): seeking back read other names")
            let tail = Self.names(directory)
            let listed = head + middle + tail
            #expect(listed.count == expected.count, "round \(round)")
            #expect(Set(listed) == expected, "round \(round)")
            // Back to the start: the whole listing once more.
            rewinddir(directory)
            #expect(Set(Self.names(directory)) == expected, "round \(round)")
        }
    }

    @Test func aListingThatGrowsAndShrinksMidwayEnds() throws {
        let library = try DirectoryListingTests.library()
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        let directory = try #require(mount.path("library/folders/big").cPath { opendir($0) })
        defer { closedir(directory) }
        // Within the first reply (a first chunk with attributes is capped at 128 KiB, about
        // 600 of these names); the next one asks for 1 MiB, the rest of the folder.
        let before = Self.names(directory, limit: 300)
        // In listing order: names before the reader's place go (the rest shift back) and
        // names far after it go (past what the C library read ahead); more names come
        // before it than went (the rest shift forward, so some are read twice).
        let tree = mount.fileSystem.tree
        let big = try #require(tree.resolve(Array("library/folders/big".utf8)))
        let order = tree.children(of: big.inode).map(\.name)
        let ids = Dictionary(
            uniqueKeysWithValues: library.assets.map { (Array($0.path.bytes.split(separator: UInt8(ascii: "/")).last!), $0.id) })
        let goneBefore = order[100..<200]
        let goneAfter = Set(order[2500..<2700])
        // Added first: the test library numbers a new asset after the count it holds.
        var addedNames: [[UInt8]] = []
        for index in 0..<600 {
            let name = Array("a-\(index).jpg".utf8)
            try library.add(Array("big/".utf8) + name, [1])
            addedNames.append(name)
        }
        for name in goneBefore + goneAfter { library.remove(try #require(ids[name])) }
        let removedCount = goneBefore.count + goneAfter.count
        mount.install(library.snapshot())
        // Bounded: a listing that looped would never end.
        let after = Self.names(directory, limit: 100_000)
        #expect(after.count < 100_000, "the listing did not end")
        #expect(after.count <= DirectoryListingTests.count + 1 + addedNames.count)
        #expect(!after.contains { goneAfter.contains($0) }, "a name removed before its page was read was listed")
        // A fresh listing shows exactly what is there now, once each.
        let fresh = try ByteFiles.list(mount.path("library/folders/big"))
        #expect(fresh.count == DirectoryListingTests.count + 1 - removedCount + addedNames.count)
        #expect(Set(fresh).count == fresh.count)
        #expect(Set(addedNames).isSubset(of: Set(fresh)) && Set(fresh).isDisjoint(with: Set(goneBefore).union(goneAfter)))
        #expect(before.count == 300)
    }
}
