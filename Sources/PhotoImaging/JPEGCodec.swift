import CTurboJPEG

// JPEG through libjpeg-turbo's TurboJPEG API. Decoding scales in the DCT domain (1/2,
// 1/4, 1/8 ... of the stored size), so a 24 MP photo shrinks to a thumbnail without
// ever holding its full-size pixels. Supports baseline and progressive 8-bit JPEG as
// libjpeg-turbo does; lossless (SOF3) and 12-bit JPEGs are refused as malformed.

/// Decodes and encodes JPEG; the only user of `CTurboJPEG`.
public enum JPEGCodec {
    /// The stored width and height from the frame header, without decoding.
    public static func dimensions(of bytes: [UInt8]) throws(ImagingError) -> (width: Int, height: Int) {
        guard let handle = tjInitDecompress() else { throw .malformed("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        return try header(handle, bytes)
    }

    /// Decodes `bytes` to RGB. With `atLeast`, the DCT-domain scale is the smallest that
    /// still gives at least that width and height; `fast` trades a little accuracy in the
    /// inverse DCT and chroma upsampling for speed (thumbnails). A fast decode at 1/8 of a
    /// sequential JPEG reads the coefficients it needs itself (`JPEGEighthScale`, the same
    /// pixels within 2 levels for less work) unless `dcOnly` is false.
    public static func decode(
        _ bytes: [UInt8], atLeast target: (width: Int, height: Int)? = nil, fast: Bool = false, dcOnly: Bool = true
    ) throws(ImagingError) -> PixelImage {
        guard let handle = tjInitDecompress() else { throw .malformed("cannot start the JPEG decoder") }
        defer { tjDestroy(handle) }
        let (width, height) = try header(handle, bytes)
        var scaled = (width: width, height: height)
        if let target {
            for factor in scalingFactors() where factor.num <= factor.denom {
                let w = (width * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
                let h = (height * Int(factor.num) + Int(factor.denom) - 1) / Int(factor.denom)
                if w >= target.width, h >= target.height, w * h < scaled.width * scaled.height { scaled = (w, h) }
            }
        }
        try DecodeLimits.check(width: scaled.width, height: scaled.height)
        if fast, dcOnly, min(width, height) >= 8, scaled.width == (width + 7) / 8, scaled.height == (height + 7) / 8,
            let image = JPEGEighthScale.decode(bytes)
        {
            return image
        }
        var pixels = [UInt8](repeating: 0, count: scaled.width * scaled.height * 3)
        var flags = TJFLAG_LIMITSCANS
        if fast { flags |= TJFLAG_FASTDCT | TJFLAG_FASTUPSAMPLE }
        let status = bytes.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(
                    handle, src.baseAddress, UInt(src.count), dst.baseAddress, Int32(scaled.width), 0, Int32(scaled.height),
                    Int32(TJPF_RGB.rawValue), flags)
            }
        }
        // A warning (a truncated or slightly corrupt scan) still leaves a usable picture.
        if status != 0, !isWarning(handle) {
            throw .malformed("JPEG: " + errorText(handle))
        }
        return PixelImage(width: scaled.width, height: scaled.height, channels: 3, pixels: pixels)
    }

    /// Encodes RGB pixels (alpha is composed over white first) as a baseline JPEG with
    /// 4:2:0 chroma at `quality` (1...100).
    public static func encode(_ image: PixelImage, quality: Int) throws(ImagingError) -> [UInt8] {
        let rgb = image.flattened()
        return try compress { handle, output, size in
            rgb.pixels.withUnsafeBufferPointer { src in
                tjCompress2(
                    handle, src.baseAddress, Int32(rgb.width), 0, Int32(rgb.height), Int32(TJPF_RGB.rawValue), &output, &size,
                    Int32(TJSAMP_420.rawValue), clamped(quality), 0)
            }
        }
    }

    /// Encodes borrowed RGB rows where they are (no copy) as a baseline JPEG with 4:2:0
    /// chroma at `quality` (1...100), like `encode(_:quality:)`.
    static func encode(_ image: BorrowedRGB, quality: Int) throws(ImagingError) -> [UInt8] {
        try compress { handle, output, size in
            tjCompress2(
                handle, image.rows, Int32(image.width), Int32(image.stride), Int32(image.height), Int32(TJPF_RGB.rawValue), &output, &size,
                Int32(TJSAMP_420.rawValue), clamped(quality), 0)
        }
    }

    /// Encodes YCbCr 4:2:0 planes as they are (no colour conversion, no resampling) as a
    /// baseline JPEG at `quality` (1...100); the planes are read where they are.
    static func encode(_ picture: YCbCrPlanes, quality: Int) throws(ImagingError) -> [UInt8] {
        var strides: [Int32] = [Int32(picture.width), Int32(picture.chromaWidth), Int32(picture.chromaWidth)]
        return try compress { handle, output, size in
            picture.luma.withUnsafeBufferPointer { luma in
                picture.cb.withUnsafeBufferPointer { cb in
                    picture.cr.withUnsafeBufferPointer { cr in
                        var planes: [UnsafePointer<UInt8>?] = [luma.baseAddress, cb.baseAddress, cr.baseAddress]
                        return tjCompressFromYUVPlanes(
                            handle, &planes, Int32(picture.width), &strides, Int32(picture.height), Int32(TJSAMP_420.rawValue), &output,
                            &size, clamped(quality), 0)
                    }
                }
            }
        }
    }

    /// Runs one TurboJPEG compression on a new encoder (`body` gets it and where to put the
    /// output and its size; it returns TurboJPEG's status) and copies the JPEG out.
    private static func compress(
        _ body: (tjhandle, inout UnsafeMutablePointer<UInt8>?, inout UInt) -> Int32
    ) throws(ImagingError) -> [UInt8] {
        guard let handle = tjInitCompress() else { throw .encodeFailed("cannot start the JPEG encoder") }
        defer { tjDestroy(handle) }
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let status = body(handle, &output, &size)
        defer { if let output { tjFree(output) } }
        guard status == 0, let output else { throw .encodeFailed("JPEG: " + errorText(handle)) }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }

    /// A JPEG quality within TurboJPEG's 1...100.
    private static func clamped(_ quality: Int) -> Int32 { Int32(max(1, min(100, quality))) }

    private static func header(_ handle: tjhandle, _ bytes: [UInt8]) throws(ImagingError) -> (width: Int, height: Int) {
        var width: Int32 = 0
        var height: Int32 = 0
        var subsampling: Int32 = 0
        var colorspace: Int32 = 0
        let status = bytes.withUnsafeBufferPointer { src in
            tjDecompressHeader3(handle, src.baseAddress, UInt(src.count), &width, &height, &subsampling, &colorspace)
        }
        // libjpeg only warns about some damage (bytes between markers, a premature end):
        // djpeg and other readers go on, so do we when the header was read.
        guard status == 0 || (isWarning(handle) && width > 0 && height > 0) else { throw .malformed("JPEG: " + errorText(handle)) }
        try DecodeLimits.check(width: Int(width), height: Int(height), maxPixels: Int.max)
        return (Int(width), Int(height))
    }

    /// Whether the last call failed only on a warning (TurboJPEG does not stop on one
    /// unless asked to with TJFLAG_STOPONWARNING, but still reports it as a failure).
    private static func isWarning(_ handle: tjhandle) -> Bool { tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) }

    private static func scalingFactors() -> [tjscalingfactor] {
        var count: Int32 = 0
        guard let factors = tjGetScalingFactors(&count), count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: factors, count: Int(count)))
    }

    private static func errorText(_ handle: tjhandle) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown error" }
        return String(cString: text)
    }
}
