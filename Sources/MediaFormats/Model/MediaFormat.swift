/// The container format of a file, decided from its magic bytes, never from its extension.
public enum MediaFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, gif, webp, tiff, dng, raw, heic, heif, avif, mp4, mov, threeGP = "3gp"
    case jxl, bmp, avi, bigTIFF = "bigtiff", mpegTS = "m2ts"

    /// Whether the format holds a still image or a video.
    public var kind: MediaKind {
        switch self {
        case .mp4, .mov, .threeGP, .avi, .mpegTS: .video
        default: .image
        }
    }

    /// The MIME type served for this format.
    public var mime: String {
        switch self {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .gif: "image/gif"
        case .webp: "image/webp"
        case .tiff: "image/tiff"
        case .dng: "image/x-adobe-dng"
        case .raw: "image/x-raw"
        case .heic: "image/heic"
        case .heif: "image/heif"
        case .avif: "image/avif"
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .threeGP: "video/3gpp"
        case .jxl: "image/jxl"
        case .bmp: "image/bmp"
        case .avi: "video/x-msvideo"
        case .bigTIFF: "image/tiff"
        case .mpegTS: "video/mp2t"
        }
    }
}

/// Still image or video.
public enum MediaKind: String, Sendable, Codable {
    case image, video
}
