/// Which kinds of media a pick request asks for, combined like PHPickerFilter:
/// `image`, `any(image,video)`, `all(image,not(screenshot))`, `not(video)`.
public indirect enum MediaSelector: Hashable, Sendable, CustomStringConvertible {
    case kind(FilterMediaType)
    /// At least one operand matches.
    case any([MediaSelector])
    /// Every operand matches.
    case all([MediaSelector])
    case not(MediaSelector)

    /// The same test in the filter language, so it can be ANDed with the app's filter.
    public var expression: FilterExpression {
        switch self {
        case .kind(let kind): .term(.type(kind))
        case .any(let operands): .or(operands.map(\.expression))
        case .all(let operands): .and(operands.map(\.expression))
        case .not(let operand): .not(operand.expression)
        }
    }

    /// Whether the asset is of the kinds asked for; `isLivePhoto` says whether it is a
    /// member of a Live Photo (which the filter language's `type:live` cannot know).
    public func matches(_ asset: Asset, isLivePhoto: Bool) -> Bool {
        switch self {
        case .kind(.live): isLivePhoto
        case .kind(let kind): kind.matches(asset)
        case .any(let operands): operands.contains { $0.matches(asset, isLivePhoto: isLivePhoto) }
        case .all(let operands): operands.allSatisfy { $0.matches(asset, isLivePhoto: isLivePhoto) }
        case .not(let operand): !operand.matches(asset, isLivePhoto: isLivePhoto)
        }
    }

    /// The canonical text (`any(image,video)`), parsed back to the same selector.
    public var description: String {
        switch self {
        case .kind(let kind): kind.rawValue
        case .any(let operands): "any(" + operands.map(\.description).joined(separator: ",") + ")"
        case .all(let operands): "all(" + operands.map(\.description).joined(separator: ",") + ")"
        case .not(let operand): "not(\(operand))"
        }
    }

    /// The filter-language text of the same test (`type:image OR type:video`), for people.
    public var filterText: String {
        switch self {
        case .kind(let kind): "type:\(kind.rawValue)"
        case .any(let operands): "(" + operands.map(\.filterText).joined(separator: " OR ") + ")"
        case .all(let operands): "(" + operands.map(\.filterText).joined(separator: " ") + ")"
        case .not(let operand): "-" + operand.filterText
        }
    }
}
