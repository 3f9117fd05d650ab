/// What an app may learn of where a photo was taken.
public enum LocationPolicy: String, Sendable, CaseIterable, Codable {
    /// GPS removed on read (the default).
    case strip
    /// Coordinates rounded to about 1 km.
    case coarse
    /// The original bytes.
    case keep
}
