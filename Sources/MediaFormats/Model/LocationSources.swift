/// Where a file carries a location (a position, a place name or a heading), as found by
/// the redaction planner's walk of every metadata block. `has:location` is true exactly
/// when this set is not empty, and the `strip` and `coarse` plans act on exactly these
/// places, so the filter and the redactor never disagree.
///
/// `unverified` means the file could hold a location where photofs cannot look with
/// certainty (a container that does not parse to its end, a block that was blanked
/// whole, a format whose metadata photofs cannot read): it counts as a location (fail
/// closed), and such a file is withheld from views that hide location.
public struct LocationSources: OptionSet, Hashable, Sendable {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// A GPS IFD holding more than GPSVersionID (EXIF of any block: primary, MPF, items).
    public static let exifGPS = LocationSources(rawValue: 1 << 0)
    /// XMP location properties (`exif:GPS*`, place names of any namespace, `drone-dji`).
    public static let xmp = LocationSources(rawValue: 1 << 1)
    /// IPTC-IIM place datasets (APP13, TIFF tags, AFCP trailers).
    public static let iptc = LocationSources(rawValue: 1 << 2)
    /// QuickTime/MP4 location atoms and keys.
    public static let movie = LocationSources(rawValue: 1 << 3)
    /// A FLIR thermal camera's GPS record.
    public static let flir = LocationSources(rawValue: 1 << 4)
    /// GeoTIFF georeferencing tags.
    public static let geoTIFF = LocationSources(rawValue: 1 << 5)
    /// Metadata that could hold a location but cannot be read with certainty.
    public static let unverified = LocationSources(rawValue: 1 << 6)
    /// A GPS stream in a GoPro GPMF timed-metadata track (`GPS5`, `GPS9`, ...).
    public static let gpmf = LocationSources(rawValue: 1 << 7)
    /// Location atoms and keys of a video appended after a still's image data (a Google or
    /// Samsung motion photo, any MP4 or QuickTime trailer).
    public static let appendedVideo = LocationSources(rawValue: 1 << 8)
    /// An XMP sidecar beside the file (`IMG.xmp`, `IMG.jpg.xmp`) that places it. The
    /// sidecar itself is not media and no view serves it.
    public static let sidecar = LocationSources(rawValue: 1 << 9)

    /// Each source with its name, for `photofs show` and plan notes.
    public static let named: [(LocationSources, String)] = [
        (.exifGPS, "EXIF GPS"), (.xmp, "XMP"), (.iptc, "IPTC"), (.movie, "video location atoms"), (.flir, "FLIR GPS record"),
        (.geoTIFF, "GeoTIFF tags"), (.gpmf, "GoPro GPS track"),
        (.appendedVideo, "video appended after the image (motion photo)"), (.sidecar, "XMP sidecar"),
        (.unverified, "metadata that cannot be read with certainty"),
    ]

    /// The names of the sources in this set, in a fixed order.
    public var names: [String] { Self.named.filter { contains($0.0) }.map(\.1) }
}
