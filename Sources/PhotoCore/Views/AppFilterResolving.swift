/// Turns an app's filter text into a test over assets, for the app views. Injected so the
/// view tree does not depend on how filters are parsed.
public protocol AppFilterResolving: Sendable {
    /// The test for `app`'s filter, or nil when the filter cannot be evaluated: the app's
    /// view then shows nothing (fail closed).
    func predicate(for app: App) -> (@Sendable (Asset) -> Bool)?
}

/// A resolver that understands only the empty filter ("everything") and fails closed on
/// any other text: what the views use until a filter language is wired in.
public struct EmptyFilterOnlyResolver: AppFilterResolving {
    public init() {}

    public func predicate(for app: App) -> (@Sendable (Asset) -> Bool)? {
        let isEmpty = app.filter.allSatisfy { $0 == " " || $0 == "\t" }
        guard isEmpty else { return nil }
        return { _ in true }
    }
}
