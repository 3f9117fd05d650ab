import CPNG

// PNG through libpng's simplified API, which reports errors as return values (no longjmp
// reaches Swift). Decoding converts every PNG (palette, grey, 16-bit) to 8-bit RGB or
// RGBA; encoding writes 8-bit RGB(A). Text chunks are added by `PNGChunks`, because the
// simplified API writes none.

/// Decodes and encodes PNG; the only user of `CPNG`.
public enum PNGCodec {
    /// Decodes `bytes` to 8-bit RGB, or RGBA when the PNG has transparency.
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelImage {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let begun = bytes.withUnsafeBytes { raw in png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) }
        guard begun != 0 else { throw .malformed("PNG: " + message(&image)) }
        let width = Int(image.width)
        let height = Int(image.height)
        do throws(ImagingError) {
            try DecodeLimits.check(width: width, height: height)
        } catch {
            png_image_free(&image)
            throw error
        }
        let alpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
        image.format = UInt32(alpha ? PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA : PNG_FORMAT_FLAG_COLOR)
        let channels = alpha ? 4 : 3
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        let finished = bytes.withUnsafeBytes { _ in
            pixels.withUnsafeMutableBytes { dst in png_image_finish_read(&image, nil, dst.baseAddress, 0, nil) }
        }
        guard finished != 0 else {
            let text = message(&image)
            png_image_free(&image)
            throw .malformed("PNG: " + text)
        }
        return PixelImage(width: width, height: height, channels: channels, pixels: pixels)
    }

    /// Encodes 8-bit RGB(A) pixels as a PNG with no ancillary chunks. `fast` is libpng's
    /// speed-over-size mode (zlib level 3, no row filters): for thumbnails, which are made
    /// often and kept locally, where the default (level 6, every filter tried on every row)
    /// would cost more than their file size is worth.
    public static func encode(_ image: PixelImage, fast: Bool = false) throws(ImagingError) -> [UInt8] {
        var png = png_image()
        png.version = UInt32(PNG_IMAGE_VERSION)
        if fast { png.flags = UInt32(PNG_IMAGE_FLAG_FAST) }
        png.width = UInt32(image.width)
        png.height = UInt32(image.height)
        png.format = UInt32(image.channels == 4 ? PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA : PNG_FORMAT_FLAG_COLOR)
        // zlib's worst case is a little over the raw size; one filter byte per row.
        let raw = (image.width * image.channels + 1) * image.height
        var capacity = raw + raw / 64 + 4096
        for _ in 0..<2 {
            var output = [UInt8](repeating: 0, count: capacity)
            var size = capacity
            let ok = image.pixels.withUnsafeBytes { src in
                output.withUnsafeMutableBytes { dst in png_image_write_to_memory(&png, dst.baseAddress, &size, 0, src.baseAddress, 0, nil) }
            }
            if ok != 0 {
                output.removeSubrange(size...)
                return output
            }
            guard size > capacity else { break }
            capacity = size
            png.warning_or_error = 0
        }
        let text = message(&png)
        png_image_free(&png)
        throw .encodeFailed("PNG: " + text)
    }

    private static func message(_ image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
    }
}
