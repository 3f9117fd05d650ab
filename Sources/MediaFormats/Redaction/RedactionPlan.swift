/// One change to a file's bytes: at `offset`, serve `bytes` instead of the original.
public struct Patch: Hashable, Sendable {
    public var offset: Int64
    public var bytes: [UInt8]

    public init(offset: Int64, bytes: [UInt8]) {
        self.offset = offset
        self.bytes = bytes
    }

    /// The first byte after the patch.
    public var end: Int64 { offset + Int64(bytes.count) }
}

/// How one file is served under one location policy: a sorted list of non-overlapping
/// patches over the original bytes (the size never changes), or withheld with a reason
/// when the container could not be parsed with certainty (fail closed).
public enum RedactionPlan: Hashable, Sendable {
    case patches([Patch])
    case withheld(reason: String)

    /// The plan that serves the original bytes.
    public static let identity = RedactionPlan.patches([])
}

/// The plans for the policies that change bytes; `keep` with `--metadata keep` always
/// serves the original.
public struct RedactionPlans: Hashable, Sendable {
    public var strip: RedactionPlan
    public var coarse: RedactionPlan
    /// The plans for apps with `--metadata private`, one per location policy.
    public var privatePlans: PrivatePlans

    public init(strip: RedactionPlan, coarse: RedactionPlan, privatePlans: PrivatePlans = .notPlanned) {
        self.strip = strip
        self.coarse = coarse
        self.privatePlans = privatePlans
    }

    /// Until a plan is computed nothing may be served to a view that hides location.
    public static let notPlanned = RedactionPlans(
        strip: .withheld(reason: "not analysed yet"), coarse: .withheld(reason: "not analysed yet"))

    /// The plan for one policy.
    public func plan(for policy: LocationPolicy) -> RedactionPlan {
        switch policy {
        case .strip: strip
        case .coarse: coarse
        case .keep: .identity
        }
    }

    /// The plan for an app with both policies.
    public func plan(for policy: LocationPolicy, metadata: MetadataPolicy) -> RedactionPlan {
        metadata == .keep ? plan(for: policy) : privatePlans.plan(for: policy)
    }

    /// Whether an app with both policies is refused the file.
    public func isWithheld(for policy: LocationPolicy, metadata: MetadataPolicy) -> Bool {
        if metadata == .private { return privatePlans.isWithheld(for: policy) }
        if case .withheld = plan(for: policy) { return true }
        return false
    }
}
