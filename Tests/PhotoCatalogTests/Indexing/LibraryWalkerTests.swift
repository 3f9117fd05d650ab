import CatalogTestSupport
import Glibc
import PhotoCore
import Testing

@testable import PhotoCatalog

@Suite("Library walker")
struct LibraryWalkerTests {
    @Test func walksBytesNotText() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lib = dir.child("lib")
        let odd: [UInt8] = Array("we".utf8) + [0xFF, 0xFE] + Array("ird\nname.jpg".utf8)
        let long = [UInt8](repeating: UInt8(ascii: "n"), count: 251) + Array(".jpg".utf8)
        try FileOps.write([1, 2, 3], to: lib + [UInt8(ascii: "/")] + odd)
        try FileOps.write([4], to: lib + Array("/sub folder/deeper/".utf8) + long)
        try FileOps.write([5], to: lib + Array("/a.jpg".utf8))
        let result = try LibraryWalker.walk(root: lib, scope: .everything)
        #expect(result.files.map(\.path.bytes) == [Array("a.jpg".utf8), Array("sub folder/deeper/".utf8) + long, odd])
        #expect(result.files.first?.stat.size == 1)
        #expect(result.unreadableFolders.isEmpty)
    }

    /// The walk yields paths in the catalog's order (bytes compared like memcmp) without
    /// sorting them all: a folder's subtree sits where `name/` falls among its siblings, so
    /// `a-b/…` (0x2D) comes before `a/…` (0x2F), which comes before `a.jpg`'s sibling `a0`.
    @Test func yieldsFilesInBytewisePathOrderOnEveryCore() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lib = dir.child("lib")
        let names = [
            "a/x.jpg", "a-b/y.jpg", "a.jpg", "a0/z.jpg", "ab.jpg", "a/b/c.jpg", "a/b.jpg", "a/b-c/d.jpg", "b/a/a/a.jpg", "b.jpg",
            "\u{e9}t\u{e9}/1.jpg", "Z.jpg",
        ]
        for name in names { try FileOps.write([1], to: lib + [UInt8(ascii: "/")] + Array(name.utf8)) }
        try FileOps.symlink(target: Array("../a.jpg".utf8), at: lib + Array("/a/link.jpg".utf8))
        let result = try LibraryWalker.walk(root: lib, scope: .everything)
        let expected = names.map { Array($0.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
        #expect(result.files.map(\.path.bytes) == expected)
        #expect(result.special.map(\.file.path.display) == ["a/link.jpg"])
        #expect(Set(result.folders.map(\.display)) == ["", "a", "a/b", "a/b-c", "a-b", "a0", "b", "b/a", "b/a/a", "\u{e9}t\u{e9}"])
        // Scopes of several folders are merged into the same order.
        let scoped = try LibraryWalker.walk(
            root: lib,
            scope: .folders([FolderScope(path: LibraryPath("b"), recursive: true), FolderScope(path: LibraryPath("a"), recursive: true)]))
        #expect(scoped.files.map(\.path.display) == ["a/b-c/d.jpg", "a/b.jpg", "a/b/c.jpg", "a/x.jpg", "b/a/a/a.jpg"])
    }

    @Test func skipsHiddenNamesSymlinksAndSpecialFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lib = dir.child("lib")
        try FileOps.write([1], to: lib + Array("/keep.jpg".utf8))
        try FileOps.write([1], to: lib + Array("/.DS_Store".utf8))
        try FileOps.write([1], to: lib + Array("/.thumbnails/t.jpg".utf8))
        try FileOps.write([1], to: lib + Array("/inner/.hidden.jpg".utf8))
        try FileOps.write([9], to: dir.child("outside/secret.jpg"))
        try FileOps.symlink(target: dir.child("outside"), at: lib + Array("/link-out".utf8))
        try FileOps.symlink(target: dir.child("outside/secret.jpg"), at: lib + Array("/secret.jpg".utf8))
        try FileOps.symlink(target: Array("inner".utf8), at: lib + Array("/link-in".utf8))
        try FileOps.symlink(target: Array("keep.jpg".utf8), at: lib + Array("/alias.jpg".utf8))
        _ = FileOps.cString(lib + Array("/fifo".utf8)) { mkfifo($0, 0o644) }
        let result = try LibraryWalker.walk(root: lib, scope: .everything)
        #expect(result.files.map(\.path.display) == ["keep.jpg"])
        // Links and the FIFO are listed as special files (recorded as not assets), hidden names not at all.
        #expect(
            result.special.map { "\($0.file.path.display) \($0.kind)" }
                == ["alias.jpg symbolicLink", "fifo fifo", "link-in symbolicLink", "link-out symbolicLink", "secret.jpg symbolicLink"])
    }

    @Test func theRootMayBeASymlink() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        try FileOps.write([1], to: dir.child("real/a.jpg"))
        try FileOps.symlink(target: dir.child("real"), at: dir.child("alias"))
        #expect(try LibraryWalker.walk(root: dir.child("alias"), scope: .everything).files.map(\.path.display) == ["a.jpg"])
    }

    @Test func aMissingLibraryIsAnError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        #expect(throws: LibraryWalkError.cannotOpenLibrary(path: dir.string + "/none", errno: ENOENT)) {
            _ = try LibraryWalker.walk(root: dir.child("none"), scope: .everything)
        }
    }

    @Test func walksOnlyTheScope() throws {
        let dir = try TemporaryDirectory()
        defer { dir.remove() }
        let lib = dir.child("lib")
        for name in ["top.jpg", "a/one.jpg", "a/b/two.jpg", "c/three.jpg"] {
            try FileOps.write([1], to: lib + [UInt8(ascii: "/")] + Array(name.utf8))
        }
        let flat = try LibraryWalker.walk(root: lib, scope: .folders([FolderScope(path: LibraryPath("a"), recursive: false)]))
        #expect(flat.files.map(\.path.display) == ["a/one.jpg"])
        let both = try LibraryWalker.walk(
            root: lib,
            scope: .folders([FolderScope(path: LibraryPath("a"), recursive: false), FolderScope(path: LibraryPath("a"), recursive: true)]))
        #expect(both.files.map(\.path.display) == ["a/b/two.jpg", "a/one.jpg"])
        let gone = try LibraryWalker.walk(root: lib, scope: .folders([FolderScope(path: LibraryPath("zzz"), recursive: true)]))
        #expect(gone.files.isEmpty && gone.unreadableFolders.isEmpty)
    }

    @Test(.enabled(if: geteuid() != 0, "root reads any folder"))
    func reportsUnreadableFolders() throws {
        let dir = try TemporaryDirectory()
        defer {
            FileOps.chmod(dir.child("lib/locked"), 0o755)
            dir.remove()
        }
        try FileOps.write([1], to: dir.child("lib/locked/a.jpg"))
        FileOps.chmod(dir.child("lib/locked"), 0)
        let result = try LibraryWalker.walk(root: dir.child("lib"), scope: .everything)
        #expect(result.unreadableFolders.map(\.0.display) == ["locked"])
    }
}

@Suite("Index error texts")
struct IndexErrorTextTests {
    @Test func sayWhatAndWhy() {
        let walk = LibraryWalkError.cannotOpenLibrary(path: "/photos", errno: ENOENT)
        #expect(walk.description == "cannot open the library folder /photos: No such file or directory")
        #expect(IndexError.library(walk).description == walk.description)
        #expect(WatchError.cannotWatch(errno: EMFILE).description == "cannot watch the library with inotify: Too many open files")
    }
}
