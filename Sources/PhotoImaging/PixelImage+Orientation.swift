extension PixelImage {
    /// The image as it should be displayed given its EXIF orientation (1...8): mirrored
    /// and/or rotated. Any other value leaves it as stored.
    public func oriented(_ orientation: Int) -> PixelImage {
        guard (2...8).contains(orientation) else { return self }
        let transposes = orientation >= 5
        let outWidth = transposes ? height : width
        let outHeight = transposes ? width : height
        let c = channels
        let w = width
        let h = height
        var out = [UInt8](repeating: 0, count: pixels.count)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for oy in 0..<outHeight {
                    for ox in 0..<outWidth {
                        let (sx, sy): (Int, Int)
                        switch orientation {
                        case 2: (sx, sy) = (w - 1 - ox, oy)
                        case 3: (sx, sy) = (w - 1 - ox, h - 1 - oy)
                        case 4: (sx, sy) = (ox, h - 1 - oy)
                        case 5: (sx, sy) = (oy, ox)
                        case 6: (sx, sy) = (oy, h - 1 - ox)
                        case 7: (sx, sy) = (w - 1 - oy, h - 1 - ox)
                        default: (sx, sy) = (w - 1 - oy, ox)
                        }
                        let s = (sy * w + sx) * c
                        let d = (oy * outWidth + ox) * c
                        for k in 0..<c { dst[d + k] = src[s + k] }
                    }
                }
            }
        }
        return PixelImage(width: outWidth, height: outHeight, channels: c, pixels: out)
    }

    /// The image without its alpha channel, composed over white (PNG thumbnails keep alpha;
    /// JPEG has none).
    public func flattened() -> PixelImage {
        guard channels == 4 else { return self }
        var out = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<(width * height) {
                    let a = UInt32(src[i * 4 + 3])
                    for k in 0..<3 {
                        dst[i * 3 + k] = UInt8((UInt32(src[i * 4 + k]) * a + 255 * (255 - a) + 127) / 255)
                    }
                }
            }
        }
        return PixelImage(width: width, height: height, channels: 3, pixels: out)
    }
}
