/// What an app asks the person for, written by the app to its request file: the
/// file-level counterpart of PHPickerConfiguration.
///
/// Text form: items separated by spaces, newlines or `;`, each `key=value` or a bare flag:
/// `media=any(image,video) limit=3 ordered mode=add timeout=120`. Every item is optional.
public struct PickRequest: Hashable, Sendable, CustomStringConvertible {
    /// How the chosen photos combine with the app's current grants.
    public enum Mode: String, Hashable, Sendable {
        /// Appended to the current grants.
        case add
        /// The choice becomes the app's whole selection.
        case replace
    }

    /// The kinds of media offered; nil offers everything the app's filter lets through.
    public var media: MediaSelector?
    /// The most photos the person may choose; 0 means as many as the app's limit allows.
    public var limit: Int
    /// Whether the picker numbers the choices in the order they were made.
    public var ordered: Bool
    public var mode: Mode
    /// Seconds until the request answers `expired`.
    public var timeoutSeconds: Int

    /// The longest and the default wait for an answer.
    public static let maximumTimeout = 3600
    public static let defaultTimeout = 600

    public init(media: MediaSelector? = nil, limit: Int = 0, ordered: Bool = true, mode: Mode = .add, timeoutSeconds: Int = defaultTimeout)
    {
        self.media = media
        self.limit = limit
        self.ordered = ordered
        self.mode = mode
        self.timeoutSeconds = timeoutSeconds
    }

    /// The canonical text, parsed back to the same request.
    public var description: String {
        var items: [String] = []
        if let media { items.append("media=\(media)") }
        items.append("limit=\(limit)")
        items.append("ordered=\(ordered ? "yes" : "no")")
        items.append("mode=\(mode.rawValue)")
        items.append("timeout=\(timeoutSeconds)")
        return items.joined(separator: " ")
    }
}
