/// Decoded 8-bit pixels, interleaved RGB (3 channels) or RGBA (4), rows packed without
/// padding. What every decoder produces and every encoder takes.
public struct PixelImage: Sendable, Equatable {
    public var width: Int
    public var height: Int
    /// 3 (RGB) or 4 (RGBA, straight alpha).
    public var channels: Int
    public var pixels: [UInt8]

    public init(width: Int, height: Int, channels: Int, pixels: [UInt8]) {
        precondition(channels == 3 || channels == 4, "RGB or RGBA only")
        precondition(pixels.count == width * height * channels, "pixel buffer does not match the size")
        self.width = width
        self.height = height
        self.channels = channels
        self.pixels = pixels
    }

    /// An image of one colour.
    public init(width: Int, height: Int, filledWith rgb: (UInt8, UInt8, UInt8)) {
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for i in stride(from: 0, to: pixels.count, by: 3) {
            pixels[i] = rgb.0
            pixels[i + 1] = rgb.1
            pixels[i + 2] = rgb.2
        }
        self.init(width: width, height: height, channels: 3, pixels: pixels)
    }
}

/// Caps on what a decoder accepts, so that a file claiming a gigantic image is refused
/// before anything is allocated for it.
public enum DecodeLimits {
    /// The largest side accepted from any header (JPEG's own limit is 65,535).
    public static let maxSide = 65_535
    /// The most pixels decoded at full resolution (HEIF, PNG, WebP): 256 MP.
    public static let maxFullPixels = 256 << 20
    /// The most pixels a HEIF picture may declare before libheif decodes it: 64 MP (phones
    /// make at most 48). libheif allocates several planes of the declared size (an overlay's
    /// whole canvas among them) before the first pixel is ours, so the general limit let an
    /// 820-byte file cost a decoder process gigabytes.
    public static let maxHEIFPixels = 64 << 20
    /// The most memory a decoder process may allocate: 4 GiB, about three times what the
    /// largest picture accepted (256 MP as RGBA) needs while it is decoded and scaled. It
    /// bounds what a decoder library can be made to allocate where the checks above do not
    /// reach (a file the item table cannot read, a coded stream larger than its header).
    public static let decoderProcessBytes = 4 << 30

    /// Throws `tooLarge` when `width`×`height` is outside the limits or not positive.
    static func check(width: Int, height: Int, maxPixels: Int = maxFullPixels) throws(ImagingError) {
        guard width > 0, height > 0 else { throw .malformed("no image dimensions") }
        guard width <= maxSide, height <= maxSide, width * height <= maxPixels else {
            throw .tooLarge(width: width, height: height)
        }
    }
}
