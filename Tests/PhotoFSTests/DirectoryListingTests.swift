import Foundation
import FuseKit
import Glibc
import PhotoCore
import Testing

/// Listings of folders too large for one READDIR reply, through the kernel: every name once
/// with its type, and a listing under way across a library change shows nothing removed.
@Suite("FuseKit directory listings", .serialized, .enabled(if: FuseAvailability.available))
struct DirectoryListingTests {
    /// Names long enough that the folder spans several READDIR(PLUS) replies.
    static func name(_ index: Int) -> [UInt8] { Array("photo-\(String(repeating: "n", count: 40))-\(index).jpg".utf8) }

    static let count = 3_000

    /// A library of `count` files in `big/` and one sub-folder `big/sub/` holding one more.
    static func library() throws -> TestLibrary {
        let library = TestLibrary()
        for index in 0..<count { try library.add(Array("big/".utf8) + name(index), [UInt8(index & 0xFF)]) }
        try library.add(Array("big/sub/inner.jpg".utf8), [1])
        return library
    }

    /// The entries of an open directory stream from where it stands: (name, d_type), without `.` and `..`.
    static func entries(_ directory: OpaquePointer, limit: Int = .max) -> [([UInt8], UInt8)] {
        var found: [([UInt8], UInt8)] = []
        while found.count < limit, let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
            if name != [UInt8(ascii: ".")] && name != [UInt8(ascii: "."), UInt8(ascii: ".")] { found.append((name, entry.pointee.d_type)) }
        }
        return found
    }

    @Test func aFolderOfThousandsListsEveryNameOnceWithItsType() throws {
        let library = try Self.library()
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        // Twice: the second listing is served from the kernel's cached listing.
        for round in 0..<2 {
            let directory = try #require(mount.path("library/folders/big").cPath { opendir($0) })
            let listed = Self.entries(directory)
            closedir(directory)
            #expect(listed.count == Self.count + 1, "round \(round)")
            #expect(Set(listed.map(\.0)) == Set((0..<Self.count).map(Self.name) + [Array("sub".utf8)]), "round \(round)")
            #expect(listed.allSatisfy { $0.1 == ($0.0 == Array("sub".utf8) ? UInt8(DT_DIR) : UInt8(DT_REG)) }, "round \(round)")
        }
        // Each listed name is what a lookup finds.
        #expect(try ByteFiles.read(mount.path(Array("library/folders/big/".utf8) + Self.name(1234))) == [UInt8(1234 & 0xFF)])
    }

    @Test func aListingUnderWayAcrossAChangeShowsNothingRemoved() throws {
        let library = try Self.library()
        let mount = try InProcessMount(library: library, snapshot: library.snapshot())
        defer { mount.finish() }
        let directory = try #require(mount.path("library/folders/big").cPath { opendir($0) })
        defer { closedir(directory) }
        // The first reply holds a few hundred names; the rest are asked for after the change.
        let before = Self.entries(directory, limit: 10)
        #expect(before.count == 10)
        let removed = Set(library.assets.suffix(500).map(\.id))
        let removedNames = Set(library.assets.suffix(500).map { Array($0.path.bytes.split(separator: UInt8(ascii: "/")).last!) })
        for id in removed { library.remove(id) }
        mount.install(library.snapshot())
        let after = Self.entries(directory)
        let listed = before + after
        #expect(!listed.contains { removedNames.contains($0.0) }, "a removed name was listed after the change")
        #expect(Set(listed.map(\.0)).count == listed.count, "a name was listed twice")
        // A fresh listing shows exactly what is left.
        let fresh = try ByteFiles.list(mount.path("library/folders/big"))
        #expect(fresh.count == Self.count + 1 - removed.count)
        #expect(fresh.allSatisfy { !removedNames.contains($0) })
    }
}
