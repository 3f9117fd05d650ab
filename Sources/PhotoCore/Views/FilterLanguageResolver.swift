/// Evaluates app filters with the filter language; a filter that does not parse (written
/// by an older or newer photofs, or edited by hand) shows nothing rather than everything.
public struct FilterLanguageResolver: AppFilterResolving {
    public init() {}

    public func predicate(for app: App) -> (@Sendable (Asset) -> Bool)? {
        guard let filter = try? Filter(app.filter) else { return nil }
        if filter.isEverything { return { _ in true } }
        return { filter.matches($0) }
    }
}
