import CWebP

// Still WebP (lossy VP8, lossless VP8L, extended VP8X with alpha) through libwebp's simple
// decoder. Animated WebP is refused as unsupported (its first frame needs the demuxer).

/// Decodes WebP; the only user of `CWebP`.
public enum WebPCodec {
    /// Decodes `bytes` to 8-bit RGB, or RGBA when the image has alpha.
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelImage {
        var features = WebPBitstreamFeatures()
        let status = bytes.withUnsafeBufferPointer { src in WebPGetFeatures(src.baseAddress, src.count, &features) }
        guard status == VP8_STATUS_OK else { throw .malformed("WebP: bitstream status \(status.rawValue)") }
        guard features.has_animation == 0 else { throw .unsupportedFormat("animated WebP") }
        let width = Int(features.width)
        let height = Int(features.height)
        try DecodeLimits.check(width: width, height: height)
        let alpha = features.has_alpha != 0
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let stride = Int32(width * channels)
        let decoded = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                alpha
                    ? WebPDecodeRGBAInto(src.baseAddress, src.count, dst.baseAddress, dst.count, stride)
                    : WebPDecodeRGBInto(src.baseAddress, src.count, dst.baseAddress, dst.count, stride)
            }
        }
        guard decoded != nil else { throw .malformed("WebP: the image data does not decode") }
        return PixelImage(width: width, height: height, channels: channels, pixels: pixels)
    }
}
