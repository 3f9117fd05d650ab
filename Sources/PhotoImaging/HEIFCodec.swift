import CHeif
import Foundation

// HEIC, HEIF and AVIF through libheif: the primary image or one of its thumbnail items,
// decoded to 8-bit RGB(A) with the container's rotation and mirroring (irot/imir) and
// cropping (clap) applied, as libheif does by default. The EXIF orientation of a HEIF
// file describes the same transform and is therefore not applied again. Grid images,
// alpha and 10-bit images are decoded by libheif; depth and auxiliary images are ignored.

/// Decodes HEIF-family images; the only user of `CHeif`.
public enum HEIFCodec {
    /// The decoded picture and whether it came from an embedded thumbnail item.
    public struct Decoded: Sendable {
        public var image: PixelImage
        public var fromThumbnail: Bool
    }

    /// Decodes the primary image of `bytes`. With `thumbnailBox`, an embedded thumbnail whose
    /// longer side reaches the box (or the whole image's, when that is smaller) and whose
    /// aspect ratio matches is decoded instead. `threads` caps libheif's decoding threads.
    public static func decode(_ bytes: [UInt8], thumbnailBox: Int? = nil, threads: Int = 1) throws(ImagingError) -> Decoded {
        try checkBeforeDecoding(bytes)
        // libheif reads from the bytes for as long as the context lives, so all of it
        // happens while they are borrowed.
        let result: Result<Decoded, ImagingError> = bytes.withUnsafeBytes { raw in
            do throws(ImagingError) {
                return .success(try decode(raw, thumbnailBox: thumbnailBox, threads: threads))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The file's primary image, for `body` only: the decoder context and the handle are
    /// freed after it.
    static func withPrimary<T>(_ raw: UnsafeRawBufferPointer, threads: Int, _ body: (OpaquePointer) throws(ImagingError) -> T)
        throws(ImagingError) -> T
    {
        guard let context = heif_context_alloc() else { throw .malformed("cannot start the HEIF decoder") }
        defer { heif_context_free(context) }
        heif_context_set_max_decoding_threads(context, Int32(max(1, threads)))
        try check(heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil))
        var primary: OpaquePointer? = nil
        try check(heif_context_get_primary_image_handle(context, &primary))
        guard let primary else { throw .malformed("HEIF: no primary image") }
        defer { heif_image_handle_release(primary) }
        return try body(primary)
    }

    /// Why a file is refused whose `meta` box the item table cannot read.
    static let unreadableTable = "HEIF: the item table cannot be read"

    /// Refuses `bytes` before libheif decodes any of it when a grid or overlay declares a
    /// canvas past the HEIF limit (libheif allocates it first), or when the item table that
    /// tells cannot be read.
    static func checkBeforeDecoding(_ bytes: [UInt8]) throws(ImagingError) {
        guard let table = HEIFItemTable(bytes) else { throw .malformed(unreadableTable) }
        try table.checkDerivedCanvases(maxPixels: DecodeLimits.maxHEIFPixels)
    }

    private static func decode(_ raw: UnsafeRawBufferPointer, thumbnailBox: Int?, threads: Int) throws(ImagingError) -> Decoded {
        try withPrimary(raw, threads: threads) { primary throws(ImagingError) -> Decoded in
            let width = Int(heif_image_handle_get_width(primary))
            let height = Int(heif_image_handle_get_height(primary))
            if let box = thumbnailBox, let thumbnail = usableThumbnail(of: primary, width: width, height: height, box: box) {
                defer { heif_image_handle_release(thumbnail) }
                if let image = try? pixels(of: thumbnail) {
                    return Decoded(image: image, fromThumbnail: true)
                }
            }
            try DecodeLimits.check(width: width, height: height, maxPixels: DecodeLimits.maxHEIFPixels)
            return Decoded(image: try pixels(of: primary), fromThumbnail: false)
        }
    }

    /// The raw EXIF item of the primary image, starting at its TIFF header, if any.
    public static func exif(_ bytes: [UInt8]) -> [UInt8]? {
        bytes.withUnsafeBytes { raw in exif(raw) }
    }

    private static func exif(_ raw: UnsafeRawBufferPointer) -> [UInt8]? {
        guard let context = heif_context_alloc() else { return nil }
        defer { heif_context_free(context) }
        guard heif_context_read_from_memory_without_copy(context, raw.baseAddress, raw.count, nil).code == heif_error_Ok else { return nil }
        var primary: OpaquePointer? = nil
        guard heif_context_get_primary_image_handle(context, &primary).code == heif_error_Ok, let primary else { return nil }
        defer { heif_image_handle_release(primary) }
        var ids = [heif_item_id](repeating: 0, count: 4)
        let count = Int(heif_image_handle_get_list_of_metadata_block_IDs(primary, "Exif", &ids, Int32(ids.count)))
        guard count > 0 else { return nil }
        let size = heif_image_handle_get_metadata_size(primary, ids[0])
        guard size > 4, size < 16 << 20 else { return nil }
        var data = [UInt8](repeating: 0, count: size)
        guard heif_image_handle_get_metadata(primary, ids[0], &data).code == heif_error_Ok else { return nil }
        // The item starts with a 4-byte big-endian offset from its end to the TIFF header.
        let skip = Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3])
        guard skip >= 0, skip <= size - 4 - 8 else { return nil }
        return Array(data[(4 + skip)...])
    }

    /// The first thumbnail item of `primary` big enough for `box` and of its shape; the caller
    /// releases the handle.
    private static func usableThumbnail(of primary: OpaquePointer, width: Int, height: Int, box: Int) -> OpaquePointer? {
        let count = Int(heif_image_handle_get_number_of_thumbnails(primary))
        guard count > 0, width > 0, height > 0 else { return nil }
        var ids = [heif_item_id](repeating: 0, count: min(count, 16))
        let listed = Int(heif_image_handle_get_list_of_thumbnail_IDs(primary, &ids, Int32(ids.count)))
        let needed = min(box, max(width, height))
        for id in ids.prefix(listed) {
            var thumbnail: OpaquePointer? = nil
            guard heif_image_handle_get_thumbnail(primary, id, &thumbnail).code == heif_error_Ok, let thumbnail else { continue }
            let w = Int(heif_image_handle_get_width(thumbnail))
            let h = Int(heif_image_handle_get_height(thumbnail))
            if max(w, h) >= needed, AspectRatio.matches(w, h, width, height),
                (try? DecodeLimits.check(width: w, height: h, maxPixels: DecodeLimits.maxHEIFPixels)) != nil
            {
                return thumbnail
            }
            heif_image_handle_release(thumbnail)
        }
        return nil
    }

    private static func pixels(of handle: OpaquePointer) throws(ImagingError) -> PixelImage {
        let alpha = heif_image_handle_has_alpha_channel(handle) != 0
        let channels = alpha ? 4 : 3
        var image: OpaquePointer? = nil
        try check(
            heif_decode_image(handle, &image, heif_colorspace_RGB, alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, nil))
        guard let image else { throw .malformed("HEIF: nothing decoded") }
        defer { heif_image_release(image) }
        let width = Int(heif_image_get_width(image, heif_channel_interleaved))
        let height = Int(heif_image_get_height(image, heif_channel_interleaved))
        try DecodeLimits.check(width: width, height: height)
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride), Int(stride) >= width * channels else {
            throw .malformed("HEIF: no interleaved plane")
        }
        let rowLength = width * channels
        var pixels = [UInt8](repeating: 0, count: rowLength * height)
        pixels.withUnsafeMutableBufferPointer { dst in
            for y in 0..<height {
                (dst.baseAddress! + y * rowLength).update(from: plane + y * Int(stride), count: rowLength)
            }
        }
        return PixelImage(width: width, height: height, channels: channels, pixels: pixels)
    }

    static func check(_ error: heif_error) throws(ImagingError) {
        guard error.code != heif_error_Ok else { return }
        let message =
            error.message.map { String(cString: $0).trimmingCharacters(in: .whitespacesAndNewlines) } ?? "error \(error.code.rawValue)"
        throw .malformed("HEIF: " + message)
    }
}

/// Whether two sizes have the same shape, within 2 % (so an embedded preview with black
/// bars or a different crop is not used for a thumbnail).
enum AspectRatio {
    static func matches(_ w1: Int, _ h1: Int, _ w2: Int, _ h2: Int) -> Bool {
        guard w1 > 0, h1 > 0, w2 > 0, h2 > 0 else { return false }
        let a = Double(w1) / Double(h1)
        let b = Double(w2) / Double(h2)
        return abs(a - b) / b <= 0.02
    }
}
