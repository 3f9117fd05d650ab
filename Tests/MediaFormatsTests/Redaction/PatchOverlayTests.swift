import Testing

@testable import MediaFormats

@Suite struct PatchOverlayTests {
    /// Patches over a 40-byte file: at its very start, in the middle (two, one byte apart),
    /// a one-byte patch, and one that ends at the last byte.
    static let patches = [
        Patch(offset: 0, bytes: [1, 2, 3]),
        Patch(offset: 10, bytes: [4, 5, 6, 7]),
        Patch(offset: 15, bytes: [8]),
        Patch(offset: 20, bytes: [9, 10, 11, 12, 13, 14]),
        Patch(offset: 37, bytes: [15, 16, 17]),
    ]
    static let original: [UInt8] = (0..<40).map { 100 + UInt8($0) }

    static var expected: [UInt8] {
        var bytes = original
        for patch in patches { bytes.replaceSubrange(Int(patch.offset)..<Int(patch.end), with: patch.bytes) }
        return bytes
    }

    @Test func everyReadWindowSeesExactlyThePatchedBytes() {
        let expected = Self.expected
        for start in 0...Self.original.count {
            for end in start...Self.original.count {
                var read = Array(Self.original[start..<end])
                PatchOverlay.apply(Self.patches, to: &read, at: Int64(start))
                #expect(read == Array(expected[start..<end]), "read [\(start), \(end))")
            }
        }
    }

    @Test func rawBufferOverlayMatchesAndReadsPastTheEndAreUntouched() {
        let expected = Self.expected
        var buffer = [UInt8](repeating: 0xEE, count: 64)
        buffer.replaceSubrange(0..<40, with: Self.original)
        buffer.withUnsafeMutableBytes { PatchOverlay.apply(Self.patches, to: UnsafeMutableRawBufferPointer(rebasing: $0[5..<64]), at: 5) }
        #expect(Array(buffer[0..<40]) == Array(Self.original[0..<5]) + Array(expected[5..<40]))
        #expect(buffer[40...].allSatisfy { $0 == 0xEE })
    }

    @Test func firstIndexFindsTheFirstPatchEndingAfterAnOffset() {
        let cases: [(Int64, Int)] = [
            (0, 0), (2, 0), (3, 1), (10, 1), (13, 1), (14, 2), (15, 2), (16, 3), (25, 3), (26, 4), (39, 4), (40, 5), (1000, 5),
        ]
        for (offset, index) in cases {
            #expect(PatchOverlay.firstIndex(in: Self.patches, endingAfter: offset) == index, "offset \(offset)")
        }
        #expect(PatchOverlay.firstIndex(in: [], endingAfter: 7) == 0)
    }

    @Test func withheldPlanLeavesTheBufferAndSaysSo() {
        var bytes: [UInt8] = [1, 2, 3]
        #expect(!RedactionPlan.withheld(reason: "x").apply(to: &bytes, at: 0))
        #expect(bytes == [1, 2, 3])
        #expect(RedactionPlan.patches([Patch(offset: 1, bytes: [9])]).apply(to: &bytes, at: 0))
        #expect(bytes == [1, 9, 3])
    }

    @Test func patchListMergesOverlapsWithLaterPatchesWinning() {
        var list = PatchList()
        list.add(at: 10, [1, 1, 1, 1])
        list.add(at: 12, [2, 2, 2, 2])  // overlaps the first
        list.add(at: 16, [3])  // touches the second
        list.add(at: 0, [4])
        list.add(at: 11, [5])  // inside the first, added last: wins
        list.add(at: 30, [])  // empty: ignored
        #expect(list.merged() == [Patch(offset: 0, bytes: [4]), Patch(offset: 10, bytes: [1, 5, 2, 2, 2, 2, 3])])
    }

    @Test func patchListRefusesMoreThanAStorablePlan() {
        var list = PatchList()
        list.fill(ByteRange(offset: 0, length: Int64(PatchList.maxTotalBytes) + 1), with: 0)
        #expect(list.refused)
        #expect(list.merged().isEmpty)
        var small = PatchList()
        small.fill(ByteRange(offset: 5, length: 3), with: 0x20)
        #expect(!small.refused)
        #expect(small.merged() == [Patch(offset: 5, bytes: [0x20, 0x20, 0x20])])
    }
}
