/// A filter as the user wrote it together with its parsed form.
///
/// The empty (or all-blank) text means "everything". Equality compares the text.
public struct Filter: Hashable, Sendable, CustomStringConvertible {
    /// The text as written, e.g. `type:image -has:location`.
    public let source: String
    /// The parsed expression.
    public let expression: FilterExpression

    /// Parses `source`; throws a `FilterError` naming the position of the problem.
    public init(_ source: String) throws(FilterError) {
        self.source = source
        self.expression = try FilterParser.parse(source)
    }

    /// The filter that matches every asset.
    public static let everything = Filter(source: "", expression: .everything)

    private init(source: String, expression: FilterExpression) {
        self.source = source
        self.expression = expression
    }

    /// Whether the filter matches every asset without looking (the empty filter).
    public var isEverything: Bool { expression == .everything }

    /// Whether the asset passes the filter.
    public func matches(_ asset: Asset) -> Bool { expression.matches(asset) }

    public var description: String { source }

    public static func == (lhs: Filter, rhs: Filter) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}
