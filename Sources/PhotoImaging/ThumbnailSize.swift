/// The sizes of the freedesktop Thumbnail Managing Standard: the longer side of the
/// thumbnail is at most this many pixels, and the cache folder has this name.
public enum ThumbnailSize: String, Sendable, CaseIterable {
    case normal
    case large
    case xLarge = "x-large"

    /// The box the thumbnail fits in.
    public var pixels: Int {
        switch self {
        case .normal: 128
        case .large: 256
        case .xLarge: 512
        }
    }

    /// The folder name under `thumbnails/`.
    public var folder: String { rawValue }
}

/// Where a thumbnail's pixels came from (reported by `photofs thumbnails` and the benchmark).
public enum ThumbnailOrigin: UInt8, Sendable, CaseIterable {
    /// The main image, decoded (JPEG at a reduced DCT scale).
    case decoded = 0
    /// The EXIF IFD1 thumbnail of a JPEG.
    case exifThumbnail = 1
    /// An MPF preview image after a JPEG.
    case mpfPreview = 2
    /// A HEIF thumbnail item.
    case heifThumbnail = 3
    /// A reduced-resolution image of a TIFF, DNG or raw file.
    case tiffPreview = 4
    /// A generated frame with a video's duration.
    case videoPlaceholder = 5
    /// A decoded frame of a video, with its duration drawn on it.
    case videoFrame = 6

    /// Whether a picture stored in the file was used instead of decoding the main image.
    public var isEmbedded: Bool { self != .decoded && self != .videoPlaceholder && self != .videoFrame }
}
