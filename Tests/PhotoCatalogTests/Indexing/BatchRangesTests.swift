import Testing

@testable import PhotoCatalog

/// The batches an index run analyses and writes: every file once, in order, none larger
/// than the batch size, and a short last batch so the run's last write is short.
@Suite("index batches")
struct BatchRangesTests {
    @Test(arguments: [(0, 1024), (1, 1024), (100, 1024), (129, 1024), (1024, 1024), (5000, 1024), (8, 1), (7, 3)])
    func batchesCoverEveryFileOnceWithAShortLastOne(count: Int, size: Int) {
        let ranges = Indexer.batchRanges(count: count, size: size)
        #expect(ranges.flatMap { Array($0) } == Array(0..<count))
        #expect(ranges.allSatisfy { !$0.isEmpty && $0.count <= size })
        if let last = ranges.last { #expect(last.count <= max(1, size / 8)) }
    }
}
