import PhotoCore
import Testing

/// The chunked array behaves as an array across chunk boundaries, and a changed copy
/// leaves the original as it was.
@Suite("ChunkedArray")
struct ChunkedArrayTests {
    @Test func appendsReadsAndRemovesAcrossChunks() {
        var array = ChunkedArray<Int>()
        for value in 0..<10_000 { array.append(value) }
        #expect(array.count == 10_000)
        #expect(Array(array) == Array(0..<10_000))
        #expect(array[4095] == 4095 && array[4096] == 4096)
        for _ in 0..<5_905 { array.removeLast() }
        #expect(array.count == 4_095)
        #expect(array.last == 4_094)
        array.append(-1)
        #expect(array[4095] == -1)
        #expect(ChunkedArray(repeating: 7, count: 9_000).filter { $0 == 7 }.count == 9_000)
    }

    @Test func aChangedCopyLeavesTheOriginal() {
        let original = ChunkedArray(0..<9_000)
        var copy = original
        copy[100] = -1
        copy[8_999] = -2
        copy.append(9_000)
        #expect(original[100] == 100 && original[8_999] == 8_999 && original.count == 9_000)
        #expect(copy[100] == -1 && copy[8_999] == -2 && copy.count == 9_001)
        #expect(original != copy)
        #expect(ChunkedArray(0..<9_000) == original)
    }

    /// Joined parts keep their full chunks and then the rest of each part, part by part;
    /// the result indexes and grows like any other chunked array.
    @Test(arguments: [[0, 0], [5, 7], [4096, 3], [5_000, 9_000], [8_192, 4_096, 1], [4_097, 0, 12_289]])
    func joiningKeepsFullChunksThenTheRest(sizes: [Int]) {
        var next = 0
        var parts: [[Int]] = []
        for size in sizes {
            parts.append(Array(next..<next + size))
            next += size
        }
        let full = { (part: [Int]) in part.count / 4096 * 4096 }
        let expected = parts.flatMap { $0.prefix(full($0)) } + parts.flatMap { $0.dropFirst(full($0)) }
        var joined = ChunkedArray(joining: parts.map { ChunkedArray($0) })
        #expect(joined.count == next)
        #expect(Array(joined) == expected)
        #expect(joined.indices.allSatisfy { joined[$0] == expected[$0] })
        joined.append(-1)
        #expect(joined.last == -1 && joined.count == next + 1 && joined[next] == -1)
    }
}
