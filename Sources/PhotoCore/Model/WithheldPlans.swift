import MediaFormats

/// Which of an asset's stored redaction plans withhold its file: all that visibility needs
/// of the plans, one byte on the asset. The plans themselves stay in the catalog until a
/// file is read (`RedactionPlanSource`).
public struct WithheldPlans: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The plan for `--location strip` withholds the file.
    public static let strip = WithheldPlans(rawValue: 1 << 0)
    /// The plan for `--location coarse` withholds the file.
    public static let coarse = WithheldPlans(rawValue: 1 << 1)
    /// The private plans (`--metadata private`), one per location policy.
    public static let privateKeep = WithheldPlans(rawValue: 1 << 2)
    public static let privateStrip = WithheldPlans(rawValue: 1 << 3)
    public static let privateCoarse = WithheldPlans(rawValue: 1 << 4)

    /// Every plan that changes bytes: a file not analysed yet.
    public static let all: WithheldPlans = [.strip, .coarse, .privateKeep, .privateStrip, .privateCoarse]

    /// What `plans` withhold.
    public init(_ plans: RedactionPlans) {
        var bits: WithheldPlans = []
        if case .withheld = plans.strip { bits.insert(.strip) }
        if case .withheld = plans.coarse { bits.insert(.coarse) }
        for policy in LocationPolicy.allCases where plans.privatePlans.isWithheld(for: policy) { bits.insert(Self.privatePlan(policy)) }
        self = bits
    }

    /// The bit of the private plan for a location policy.
    public static func privatePlan(_ policy: LocationPolicy) -> WithheldPlans {
        switch policy {
        case .keep: .privateKeep
        case .strip: .privateStrip
        case .coarse: .privateCoarse
        }
    }

    /// Whether an app with both policies is refused the file (as
    /// `RedactionPlans.isWithheld(for:metadata:)` says of the plans).
    public func isWithheld(for policy: LocationPolicy, metadata: MetadataPolicy) -> Bool {
        if metadata == .private { return contains(Self.privatePlan(policy)) }
        switch policy {
        case .keep: return false
        case .strip: return contains(.strip)
        case .coarse: return contains(.coarse)
        }
    }
}
