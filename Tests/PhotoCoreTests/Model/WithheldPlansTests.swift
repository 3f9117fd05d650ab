import MediaFormats
import PhotoCore
import Testing

/// The bits an asset keeps of its plans say what the plans say: for every location and
/// metadata policy, withheld exactly when the plan withholds.
@Suite("WithheldPlans")
struct WithheldPlansTests {
    static let patched = RedactionPlan.patches([Patch(offset: 4, bytes: [0, 0])])
    static let refused = RedactionPlan.withheld(reason: "truncated XMP")

    static let cases: [RedactionPlans] = [
        .notPlanned,
        RedactionPlans(strip: .identity, coarse: .identity),
        RedactionPlans(strip: patched, coarse: refused),
        RedactionPlans(strip: refused, coarse: patched, privatePlans: PrivatePlans(keep: patched, strip: refused, coarse: .identity)),
        RedactionPlans(strip: patched, coarse: patched, privatePlans: PrivatePlans(keep: refused, strip: patched, coarse: refused)),
        RedactionPlans(
            strip: .identity, coarse: .identity, privatePlans: PrivatePlans(keep: .identity, strip: .identity, coarse: .identity)),
    ]

    @Test(arguments: cases)
    func bitsAgreeWithThePlans(_ plans: RedactionPlans) {
        let bits = WithheldPlans(plans)
        for location in LocationPolicy.allCases {
            for metadata in MetadataPolicy.allCases {
                #expect(
                    bits.isWithheld(for: location, metadata: metadata) == plans.isWithheld(for: location, metadata: metadata),
                    "\(location), \(metadata)")
            }
        }
    }

    @Test func notPlannedWithholdsEverythingThatChangesBytes() {
        #expect(WithheldPlans(.notPlanned) == .all)
        #expect(!WithheldPlans.all.isWithheld(for: .keep, metadata: .keep))
    }
}
