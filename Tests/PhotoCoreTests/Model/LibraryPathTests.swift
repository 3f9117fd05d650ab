import PhotoCore
import Testing

/// Paths made in an arena's shared buffers and paths with buffers of their own are the
/// same values: equal, hashed, ordered and spelled alike, whatever buffer holds them.
@Suite struct LibraryPathTests {
    static let samples: [[UInt8]] = [
        [], Array("a".utf8), Array("a/b".utf8), Array("a/b/c.jpg".utf8), Array("a/bc".utf8), Array("a0".utf8), Array("ab".utf8),
        [0x61, 0xFF, 0x2F, 0x0A, 0x62], Array("2019/Beach weekend 10/IMG_3706.jpg".utf8),
        Array(repeating: UInt8(ascii: "x"), count: 300),
    ]

    /// Every sample made in a small arena (chunks fill and roll over), in sample order.
    static func arenaPaths(chunkBytes: Int) -> [LibraryPath] {
        var arena = PathArena(chunkBytes: chunkBytes)
        return samples.map { bytes in bytes.withUnsafeBufferPointer { arena.path($0) } }
    }

    @Test(arguments: [0, 16, 64, 64 * 1024])
    func arenaPathsAreTheirBytes(chunkBytes: Int) {
        let made = Self.arenaPaths(chunkBytes: chunkBytes)
        for (path, bytes) in zip(made, Self.samples) {
            let own = LibraryPath(bytes: bytes)
            #expect(path.bytes == bytes)
            #expect(path.count == bytes.count && path.isEmpty == bytes.isEmpty)
            #expect(path == own && path.hashValue == own.hashValue)
            #expect(path.display == own.display && path.fileName == own.fileName && path.folder == own.folder)
        }
    }

    @Test func orderIsBytewiseWithPrefixesFirst() {
        let made = Self.arenaPaths(chunkBytes: 64)
        for (a, x) in zip(made, Self.samples) {
            for (b, y) in zip(made, Self.samples) {
                #expect((a < b) == x.lexicographicallyPrecedes(y), "\(a) < \(b)")
                #expect((a == b) == (x == y))
            }
        }
        #expect(LibraryPath("a/b") < LibraryPath("a/b/c") && LibraryPath("a/b/c") < LibraryPath("a0"))
        #expect(LibraryPath(bytes: [0x61, 0xFF]) > LibraryPath(bytes: [0x61, 0x7F]), "bytes compare unsigned")
    }

    @Test func appendingJoinsWithOneSlash() {
        var arena = PathArena(chunkBytes: 64)
        let folder = LibraryPath("2024/June")
        let names: [[UInt8]] = [Array("a.jpg".utf8), [], [0xFF, 0x0A]]
        for name in names {
            let joined = name.withUnsafeBufferPointer { arena.path(folder, appending: $0) }
            #expect(joined.bytes == Array("2024/June/".utf8) + name)
            #expect(joined == folder.appending(name))
        }
        let atRoot = Array("b.png".utf8).withUnsafeBufferPointer { arena.path(LibraryPath(bytes: []), appending: $0) }
        #expect(atRoot == LibraryPath("b.png"))
    }

    /// A path longer than the inline count's range keeps every byte.
    @Test func longPathsKeepEveryByte() {
        let component = Array(repeating: UInt8(ascii: "d"), count: 250) + [UInt8(ascii: "/")]
        let bytes = Array((0..<300).map { _ in component }.joined()) + Array("f.jpg".utf8)
        #expect(bytes.count > Int(UInt16.max))
        var arena = PathArena()
        let made = bytes.withUnsafeBufferPointer { arena.path($0) }
        let own = LibraryPath(bytes: bytes)
        #expect(made.count == bytes.count && own.count == bytes.count)
        #expect(made.bytes == bytes && made == own && made.hashValue == own.hashValue)
        #expect(made.fileName == Array("f.jpg".utf8))
        #expect(made.staysInsideLibrary)
        let shorter = LibraryPath(bytes: bytes.dropLast())
        #expect(shorter < made && shorter != made)
    }
}
