/// Turns an app's filter text into a test over assets, for the app views. Injected so the
/// view tree does not depend on how filters are parsed.
public protocol AppFilterResolving: Sendable {
    /// The test for `app`'s filter, or nil when the filter cannot be evaluated: the app's
    /// view then shows nothing (fail closed).
    func predicate(for app: App) -> (@Sendable (Asset) -> Bool)?
}
