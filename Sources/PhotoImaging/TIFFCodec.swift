import CTIFF

// TIFF through libtiff's RGBA reader: the first directory in any compression libtiff was
// built with (none, LZW, Deflate, PackBits, CCITT fax, JPEG, old JPEG, ZSTD, WebP, ...)
// and any photometric interpretation its RGBA interface converts (RGB, palette, grey,
// bilevel, CMYK, YCbCr, CIE L*a*b*). Bytes come from memory, never from a path.
// Not supported: more than 8 bits per sample are reduced to 8; BigTIFF is read by
// libtiff too.

/// Decodes TIFF main images; the only user of `CTIFF`.
public enum TIFFCodec {
    /// The largest single allocation libtiff may make for one file (a strip, a tile).
    static let maxAllocation = 256 << 20

    /// Decodes the first image of `bytes` to RGBA in stored order: the orientation tag is
    /// not applied (the caller turns the picture upright, as for every format).
    public static func decode(_ bytes: [UInt8]) throws(ImagingError) -> PixelImage {
        let reader = MemoryReader(bytes)
        let context = Unmanaged.passUnretained(reader).toOpaque()
        guard let options = photofs_tiff_options(tmsize_t(maxAllocation)) else { throw .malformed("cannot start the TIFF decoder") }
        defer { TIFFOpenOptionsFree(options) }
        let opened = TIFFClientOpenExt(
            "photo", "rm", context,
            { context, buffer, count in
                guard let context, let buffer, count > 0 else { return 0 }
                let reader = Unmanaged<MemoryReader>.fromOpaque(context).takeUnretainedValue()
                return tmsize_t(reader.read(into: buffer.assumingMemoryBound(to: UInt8.self), count: Int(count)))
            },
            { _, _, _ in -1 },
            { context, offset, whence in
                guard let context else { return toff_t.max }
                let reader = Unmanaged<MemoryReader>.fromOpaque(context).takeUnretainedValue()
                let base: Int
                switch whence {
                case SEEK_SET: base = 0
                case SEEK_CUR: base = reader.position
                case SEEK_END: base = reader.bytes.count
                default: return toff_t.max
                }
                // A seek past the end (or before the start) is an error to libtiff.
                let target = Int64(base) &+ Int64(bitPattern: offset)
                guard target >= 0, target <= Int64(reader.bytes.count) else { return toff_t.max }
                return toff_t(reader.seek(to: Int(target)))
            },
            { _ in 0 },
            { context in
                guard let context else { return 0 }
                return toff_t(Unmanaged<MemoryReader>.fromOpaque(context).takeUnretainedValue().bytes.count)
            },
            { _, _, _ in 0 },
            { _, _, _ in },
            options)
        guard let tiff = opened else { throw .malformed("TIFF: libtiff cannot open the file") }
        defer { TIFFClose(tiff) }
        return try withExtendedLifetime(reader) { () throws(ImagingError) -> PixelImage in try image(tiff) }
    }

    private static func image(_ tiff: OpaquePointer) throws(ImagingError) -> PixelImage {
        var width: UInt32 = 0
        var height: UInt32 = 0
        guard photofs_tiff_size(tiff, &width, &height) != 0 else { throw .malformed("TIFF: no image dimensions") }
        try DecodeLimits.check(width: Int(width), height: Int(height))
        var message = [CChar](repeating: 0, count: 1024)
        guard TIFFRGBAImageOK(tiff, &message) == 1 else {
            throw .unsupportedFormat(
                "this TIFF (" + String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + ")")
        }
        var raster = [UInt32](repeating: 0, count: Int(width) * Int(height))
        // Asking for the file's own orientation keeps the rows as stored.
        let orientation = UInt32(photofs_tiff_orientation(tiff))
        let status = raster.withUnsafeMutableBufferPointer {
            TIFFReadRGBAImageOriented(tiff, width, height, $0.baseAddress, Int32(orientation), 0)
        }
        guard status == 1 else { throw .malformed("TIFF: the image data does not decode") }
        // Each value holds R in its lowest byte, then G, B and A.
        var pixels = [UInt8](repeating: 0, count: raster.count * 4)
        var opaque = true
        for (index, value) in raster.enumerated() {
            pixels[index * 4] = UInt8(value & 0xFF)
            pixels[index * 4 + 1] = UInt8(value >> 8 & 0xFF)
            pixels[index * 4 + 2] = UInt8(value >> 16 & 0xFF)
            pixels[index * 4 + 3] = UInt8(value >> 24)
            if value >> 24 != 0xFF { opaque = false }
        }
        let image = PixelImage(width: Int(width), height: Int(height), channels: 4, pixels: pixels)
        return opaque ? image.flattened() : image
    }
}
