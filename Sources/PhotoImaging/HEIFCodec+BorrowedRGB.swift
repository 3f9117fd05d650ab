import CHeif

extension HEIFCodec {
    /// Runs `body` with the upright primary image of `bytes` decoded to RGB (as `decode`
    /// decodes it) in libheif's own buffer, and returns what it returns; nil, without
    /// decoding, when the image has alpha (the caller composes it over white first).
    /// `threads` caps libheif's decoding threads (grid tiles are decoded in parallel).
    static func withRGB<T>(_ bytes: [UInt8], threads: Int, _ body: (BorrowedRGB) throws(ImagingError) -> T) throws(ImagingError) -> T? {
        try checkBeforeDecoding(bytes)
        let result: Result<T?, ImagingError> = bytes.withUnsafeBytes { raw in
            do throws(ImagingError) {
                return .success(try withRGB(raw, threads: threads, body))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    private static func withRGB<T>(
        _ raw: UnsafeRawBufferPointer, threads: Int, _ body: (BorrowedRGB) throws(ImagingError) -> T
    ) throws(ImagingError) -> T? {
        try withPrimary(raw, threads: threads) { primary throws(ImagingError) -> T? in
            guard heif_image_handle_has_alpha_channel(primary) == 0 else { return nil }
            try DecodeLimits.check(
                width: Int(heif_image_handle_get_width(primary)), height: Int(heif_image_handle_get_height(primary)),
                maxPixels: DecodeLimits.maxHEIFPixels)
            // libheif 1.15 turns the decoder's YCbCr into planar RGB first and interleaves it in a
            // second, slow pass when asked for interleaved RGB: asked for its own layout, it
            // stops after the first, and the interleaving below costs a fraction of that pass.
            var decoded: OpaquePointer? = nil
            try check(heif_decode_image(primary, &decoded, heif_colorspace_undefined, heif_chroma_undefined, nil))
            guard let image = decoded else { throw .malformed("HEIF: nothing decoded") }
            defer { heif_image_release(image) }
            if let planes = try planarRGB(image) {
                let rows = [UInt8](unsafeUninitializedCapacity: planes.width * planes.height * 3) { buffer, count in
                    interleave(planes, into: buffer.baseAddress!)
                    count = planes.width * planes.height * 3
                }
                return try rows.withUnsafeBufferPointer { buffer throws(ImagingError) in
                    try body(BorrowedRGB(width: planes.width, height: planes.height, rows: buffer.baseAddress!, stride: planes.width * 3))
                }
            }
            var interleaved: OpaquePointer? = nil
            try check(heif_decode_image(primary, &interleaved, heif_colorspace_RGB, heif_chroma_interleaved_RGB, nil))
            guard let image = interleaved else { throw .malformed("HEIF: nothing decoded") }
            defer { heif_image_release(image) }
            let width = Int(heif_image_get_width(image, heif_channel_interleaved))
            let height = Int(heif_image_get_height(image, heif_channel_interleaved))
            try DecodeLimits.check(width: width, height: height)
            var stride: Int32 = 0
            guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * 3 else {
                throw .malformed("HEIF: no interleaved plane")
            }
            return try body(BorrowedRGB(width: width, height: height, rows: plane, stride: Int(stride)))
        }
    }

    /// The three 8-bit planes of a decoded planar RGB image; nil for any other layout.
    private static func planarRGB(_ image: OpaquePointer) throws(ImagingError) -> PlanarRGB? {
        guard heif_image_get_colorspace(image) == heif_colorspace_RGB, heif_image_get_chroma_format(image) == heif_chroma_444 else {
            return nil
        }
        let width = Int(heif_image_get_width(image, heif_channel_R))
        let height = Int(heif_image_get_height(image, heif_channel_R))
        try DecodeLimits.check(width: width, height: height)
        var planes: [UnsafePointer<UInt8>] = []
        var strides: [Int32] = [0, 0, 0]
        for (index, channel) in [heif_channel_R, heif_channel_G, heif_channel_B].enumerated() {
            guard heif_image_get_bits_per_pixel_range(image, channel) == 8, Int(heif_image_get_width(image, channel)) == width,
                Int(heif_image_get_height(image, channel)) == height,
                let plane = heif_image_get_plane_readonly(image, channel, &strides[index]), Int(strides[index]) >= width
            else { return nil }
            planes.append(plane)
        }
        return PlanarRGB(
            width: width, height: height, red: planes[0], green: planes[1], blue: planes[2],
            strides: (Int(strides[0]), Int(strides[1]), Int(strides[2])))
    }

    /// Writes the planes as packed RGB rows (`width` × 3 bytes each) to `out`.
    private static func interleave(_ planes: PlanarRGB, into out: UnsafeMutablePointer<UInt8>) {
        for y in 0..<planes.height {
            let r = planes.red + y * planes.strides.0
            let g = planes.green + y * planes.strides.1
            let b = planes.blue + y * planes.strides.2
            let row = out + y * planes.width * 3
            for x in 0..<planes.width {
                row[3 * x] = r[x]
                row[3 * x + 1] = g[x]
                row[3 * x + 2] = b[x]
            }
        }
    }
}

/// The R, G and B planes of a picture libheif decoded, valid while its image lives.
private struct PlanarRGB {
    var width: Int
    var height: Int
    var red: UnsafePointer<UInt8>
    var green: UnsafePointer<UInt8>
    var blue: UnsafePointer<UInt8>
    var strides: (Int, Int, Int)
}
