import CJXL
import MediaFormats

// JPEG XL (bare codestream or container) through libjxl's decoder: the first frame as 8-bit
// RGB or RGBA, turned upright by the decoder (the codestream's own orientation field), in
// the colour space libjxl hands 8-bit output in (sRGB for XYB-coded images). Progressive
// passes and further animation frames are not read.

/// Decodes JPEG XL; the only user of `CJXL`.
public enum JXLCodec {
    /// Decodes the first frame of `bytes`.
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelImage {
        guard let decoder = JxlDecoderCreate(nil) else { throw .malformed("JPEG XL: no decoder") }
        defer { JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue | JXL_DEC_FULL_IMAGE.rawValue)
        guard JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS else { throw .malformed("JPEG XL: decoder setup") }
        return try bytes.withUnsafeBufferPointer { (input) throws(ImagingError) -> PixelImage in
            guard JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS else {
                throw .malformed("JPEG XL: input refused")
            }
            JxlDecoderCloseInput(decoder)
            var info = JxlBasicInfo()
            var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
            var pixels: [UInt8] = []
            var size = (width: 0, height: 0)
            while true {
                let status = JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_BASIC_INFO:
                    guard JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { throw .malformed("JPEG XL: basic info") }
                    // The decoder turns the picture upright: orientations 5-8 swap the sides.
                    let turned = info.orientation.rawValue >= 5
                    size = turned ? (Int(info.ysize), Int(info.xsize)) : (Int(info.xsize), Int(info.ysize))
                    try DecodeLimits.check(width: size.width, height: size.height)
                    format.num_channels = (info.num_color_channels == 1 ? 1 : 3) + (info.alpha_bits > 0 ? 1 : 0)
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    var needed = 0
                    guard JxlDecoderImageOutBufferSize(decoder, &format, &needed) == JXL_DEC_SUCCESS,
                        needed == size.width * size.height * Int(format.num_channels)
                    else { throw .malformed("JPEG XL: unexpected output size") }
                    pixels = [UInt8](repeating: 0, count: needed)
                    let set = pixels.withUnsafeMutableBytes { out in
                        JxlDecoderSetImageOutBuffer(decoder, &format, out.baseAddress, out.count)
                    }
                    guard set == JXL_DEC_SUCCESS else { throw .malformed("JPEG XL: output buffer refused") }
                case JXL_DEC_FULL_IMAGE, JXL_DEC_SUCCESS:
                    guard !pixels.isEmpty else { throw .malformed("JPEG XL: no image") }
                    return Self.image(pixels, width: size.width, height: size.height, channels: Int(format.num_channels))
                case JXL_DEC_NEED_MORE_INPUT:
                    throw .malformed("JPEG XL: the file ends before the image does")
                default:
                    throw .malformed("JPEG XL: the codestream does not decode (status \(status.rawValue))")
                }
            }
        }
    }

    /// The largest EXIF box read (a real one is a few kilobytes).
    static let maxEXIF = 4 << 20

    /// The file's EXIF, a TIFF block from the container's `Exif` box (also when the box is
    /// Brotli-compressed in a `brob` box, as `cjxl` writes it), or nil.
    public static func exif(_ bytes: [UInt8]) -> [UInt8]? {
        guard let decoder = JxlDecoderCreate(nil) else { return nil }
        defer { JxlDecoderDestroy(decoder) }
        guard JxlDecoderSubscribeEvents(decoder, Int32(JXL_DEC_BOX.rawValue)) == JXL_DEC_SUCCESS,
            JxlDecoderSetDecompressBoxes(decoder, 1) == JXL_DEC_SUCCESS
        else { return nil }
        let chunk = 1 << 16
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: chunk)
        defer { buffer.deallocate() }
        return bytes.withUnsafeBufferPointer { input -> [UInt8]? in
            guard JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS else { return nil }
            JxlDecoderCloseInput(decoder)
            var box: [UInt8]? = nil
            func drain() {
                let left = JxlDecoderReleaseBoxBuffer(decoder)
                box? += UnsafeBufferPointer(start: buffer, count: chunk - min(chunk, left))
            }
            while true {
                switch JxlDecoderProcessInput(decoder) {
                case JXL_DEC_BOX:
                    if box != nil {
                        drain()
                        return tiff(inExifBox: box!)
                    }
                    var type: [CChar] = [0, 0, 0, 0]
                    guard JxlDecoderGetBoxType(decoder, &type, 1) == JXL_DEC_SUCCESS else { return nil }
                    if type.map({ UInt8(bitPattern: $0) }) == Array("Exif".utf8) {
                        box = []
                        guard JxlDecoderSetBoxBuffer(decoder, buffer, chunk) == JXL_DEC_SUCCESS else { return nil }
                    }
                case JXL_DEC_BOX_NEED_MORE_OUTPUT:
                    drain()
                    guard (box?.count ?? 0) <= maxEXIF, JxlDecoderSetBoxBuffer(decoder, buffer, chunk) == JXL_DEC_SUCCESS else {
                        return nil
                    }
                case JXL_DEC_SUCCESS:
                    guard box != nil else { return nil }
                    drain()
                    return tiff(inExifBox: box!)
                default:
                    return nil
                }
            }
        }
    }

    /// The TIFF block of an `Exif` box: after a 4-byte big-endian offset to its header.
    static func tiff(inExifBox box: [UInt8]) -> [UInt8]? {
        guard box.count >= 12 else { return nil }
        let skip = Int(box[0]) << 24 | Int(box[1]) << 16 | Int(box[2]) << 8 | Int(box[3])
        guard skip >= 0, skip <= box.count - 4 - 8 else { return nil }
        return Array(box[(4 + skip)...])
    }

    /// Gray (1 channel) and gray+alpha (2) widened to RGB and RGBA.
    private static func image(_ pixels: [UInt8], width: Int, height: Int, channels: Int) -> PixelImage {
        guard channels <= 2 else { return PixelImage(width: width, height: height, channels: channels, pixels: pixels) }
        var wide: [UInt8] = []
        wide.reserveCapacity(width * height * (channels + 2))
        for index in stride(from: 0, to: pixels.count, by: channels) {
            let gray = pixels[index]
            wide += [gray, gray, gray]
            if channels == 2 { wide.append(pixels[index + 1]) }
        }
        return PixelImage(width: width, height: height, channels: channels + 2, pixels: wide)
    }
}
