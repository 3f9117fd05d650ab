/// A position on Earth in signed decimal degrees (south and west negative).
///
/// Coordinates are private data: never put one in a log line or an error message.
public struct GeoLocation: Hashable, Sendable {
    public var latitude: Double
    public var longitude: Double
    /// Metres above sea level (negative below), when the file says.
    public var altitude: Double?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
    }

    /// Whether both coordinates lie in their valid ranges.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }
}
