import Testing

@testable import MediaFormats

@Suite struct RedactionPlanEncodingTests {
    static let samples: [RedactionPlans] = [
        RedactionPlans(strip: .identity, coarse: .identity),
        .notPlanned,
        RedactionPlans(
            strip: .patches([
                Patch(offset: 0, bytes: [1]), Patch(offset: 70, bytes: [UInt8](repeating: 0, count: 78)),
                Patch(offset: 1 << 40, bytes: [1, 2, 3]),
            ]),
            coarse: .withheld(reason: "conteneur illisible: « tronqué »")),
    ]

    @Test(arguments: samples)
    func roundTrips(plans: RedactionPlans) throws {
        let encoded = plans.encoded()
        #expect(try RedactionPlans(encoded: encoded) == plans)
        #expect(try RedactionPlan(encoded: plans.strip.encoded()) == plans.strip)
    }

    @Test func fillsAreCompact() {
        let plan = RedactionPlan.patches([Patch(offset: 1000, bytes: [UInt8](repeating: 0, count: 65_000))])
        // kind, count, gap (2 bytes), length (3 bytes), mode, byte
        #expect(plan.encoded() == [0, 1, 0xE8, 0x07, 0xE8, 0xFB, 0x03, 1, 0])
    }

    @Test(
        arguments: [
            ([], RedactionPlanDecodingError.truncated),
            ([2, 0, 0, 0, 0], .unsupportedVersion(2)),
            ([1, 0, 0], .truncated),
            ([1, 0, 0, 0, 0, 7], .trailingBytes(at: 5)),
            ([1, 5, 0, 0, 0], .unknownPlanKind(5)),
            ([1, 0, 1, 0, 0, 0, 0, 0], .malformedPatch(at: 3)),  // zero-length patch
            ([1, 0, 2, 0, 1, 1, 9, 0, 1, 1, 9, 0, 0], .malformedPatch(at: 7)),  // second patch touches the first
            ([1, 0, 1, 0, 1, 2, 9, 0, 0], .malformedPatch(at: 3)),  // unknown patch mode
            ([1, 0, 1, 0x80, 0x00, 1, 1, 9, 0, 0], .malformedVarint(at: 3)),  // non-minimal varint
            ([1, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], .malformedVarint(at: 3)),  // > 64 bits
            // offset > Int64.max
            ([1, 0, 1, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01, 1, 1, 9, 0, 0], .malformedPatch(at: 3)),
            ([1, 0, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x01, 1, 0, 0, 0], .malformedPatch(at: 3)),  // fill past the size limit
            ([1, 1, 2, 0xC3, 0x28, 0, 0], .invalidText),
            ([1, 1, 9, 0x41], .truncated),
        ] as [([UInt8], RedactionPlanDecodingError)])
    func rejectsMalformedInput(bytes: [UInt8], error: RedactionPlanDecodingError) {
        #expect(throws: error) { try RedactionPlans(encoded: bytes) }
    }
}
