import Testing

@testable import PhotoCore

/// The byte arena that holds a part's names: every stored name reads back as stored, also
/// across chunk boundaries and after a copy was appended to (copy-on-write chunks).
@Suite("Name arena")
struct NameArenaTests {
    /// Names of 0 to 255 bytes, enough of them to fill several 64 KiB chunks.
    private static func names(_ count: Int) -> [[UInt8]] {
        (0..<count).map { index in (0..<(index * 37 % 256)).map { UInt8(truncatingIfNeeded: $0 &+ index) } }
    }

    @Test func everyNameReadsBackAcrossChunks() {
        let names = Self.names(2_000)
        var arena = NameArena()
        let spans = names.map { arena.append($0) }
        // About 255 KB of names: at least four chunks, and no name split between two.
        #expect(Set(spans.map { $0.start >> 16 }).count >= 4)
        for (name, span) in zip(names, spans) {
            #expect(arena.name(span) == name)
            #expect(arena.name(span, equals: name))
            #expect(Int(span.start & 0xFFFF) + name.count <= NameArena.chunkSize)
        }
        #expect(!arena.name(spans[5], equals: names[6]))
        #expect(arena.name(spans[0]) == [])
    }

    @Test func aCopyAppendedToLeavesTheOriginalAsItWas() {
        var arena = NameArena()
        let first = arena.append(Array("IMG_0001.jpg".utf8))
        var copy = arena
        let second = copy.append(Array("IMG_0002.jpg".utf8))
        #expect(copy.name(first) == Array("IMG_0001.jpg".utf8))
        #expect(copy.name(second) == Array("IMG_0002.jpg".utf8))
        // The original never held the second name: its next name goes where the copy's went.
        let original = arena.append(Array("other".utf8))
        #expect(original.start == second.start)
        #expect(arena.name(original) == Array("other".utf8))
        #expect(copy.name(second) == Array("IMG_0002.jpg".utf8))
    }

    @Test func orderIsByteWiseWithShorterPrefixFirst() {
        var arena = NameArena()
        let (a, ab, b, upper) = (
            arena.append(Array("a".utf8)), arena.append(Array("ab".utf8)), arena.append(Array("b".utf8)), arena.append(Array("B".utf8))
        )
        #expect(arena.precedes(a, ab))
        #expect(!arena.precedes(ab, a))
        #expect(arena.precedes(ab, b))
        #expect(arena.precedes(upper, a))
        #expect(!arena.precedes(a, a))
    }
}
