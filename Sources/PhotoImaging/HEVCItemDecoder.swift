import CHeif

// One coded HEVC image of a HEIF file (an `hvc1` item: a whole picture or one grid tile)
// decoded by libde265 on the calling thread, its YCbCr 4:2:0 planes copied into a bigger
// picture at a given place. Only 8-bit 4:2:0 is handled; anything else is reported as
// unsupported and the caller decodes the file through libheif instead.

/// Decodes `hvc1` items with libde265 into `YCbCrPlanes`.
enum HEVCItemDecoder {
    /// What the decoder said about the colour of a picture (its VUI), which decides whether
    /// its YCbCr may go into a JPEG as it is.
    struct Colour: Equatable {
        var matrix: Int
        var fullRange: Bool
    }

    /// Where a decoded item goes: its top-left corner in the picture, in luma samples (even).
    struct Placement {
        var x: Int
        var y: Int
    }

    /// The decoder configuration record (`hvcC`): the parameter-set NAL units and the size
    /// of the length field before each NAL unit of the item's data.
    struct Configuration {
        var parameterSets: [[UInt8]]
        var lengthSize: Int

        init?(_ table: HEIFItemTable, _ payload: Range<Int>) {
            guard let last = table.u8(payload, 21), let arrays = table.u8(payload, 22) else { return nil }
            lengthSize = Int(last & 3) + 1
            guard lengthSize != 3 else { return nil }
            var at = 23
            var sets: [[UInt8]] = []
            for _ in 0..<arrays {
                guard let count = table.u16(payload, at + 1) else { return nil }
                at += 3
                for _ in 0..<count {
                    guard let size = table.u16(payload, at), at + 2 + Int(size) <= payload.count else { return nil }
                    let start = payload.lowerBound + at + 2
                    sets.append(Array(table.bytes[start..<(start + Int(size))]))
                    at += 2 + Int(size)
                }
            }
            parameterSets = sets
        }
    }

    /// Decodes `data` (length-prefixed NAL units) with the parameter sets of `configuration`
    /// and copies the picture into `picture` at `placement`, clipped to the picture. Returns
    /// the decoded size and colour, or nil when the item is not 8-bit 4:2:0 or did not decode.
    static func decode(
        _ data: [UInt8], configuration: Configuration, into picture: PlaneWriter, at placement: Placement
    ) -> (width: Int, height: Int, colour: Colour)? {
        guard let context = de265_new_decoder() else { return nil }
        defer { _ = de265_free_decoder(context) }
        for set in configuration.parameterSets {
            guard push(context, set[...]) else { return nil }
        }
        var at = 0
        while at < data.count {
            guard at + configuration.lengthSize <= data.count else { return nil }
            var size = 0
            for byte in data[at..<(at + configuration.lengthSize)] { size = size << 8 | Int(byte) }
            at += configuration.lengthSize
            guard size <= data.count - at else { return nil }
            guard push(context, data[at..<(at + size)]) else { return nil }
            at += size
        }
        guard de265_flush_data(context) == DE265_OK else { return nil }
        var more: Int32 = 1
        while more != 0 {
            more = 0
            guard de265_decode(context, &more) == DE265_OK else { return nil }
            if let image = de265_get_next_picture(context) {
                return copy(image, into: picture, at: placement)
            }
        }
        return nil
    }

    private static func push(_ context: UnsafeMutableRawPointer, _ nal: ArraySlice<UInt8>) -> Bool {
        nal.withUnsafeBytes { raw in de265_push_NAL(context, raw.baseAddress, Int32(raw.count), 0, nil) == DE265_OK }
    }

    private static func copy(_ image: OpaquePointer, into picture: PlaneWriter, at placement: Placement) -> (
        width: Int, height: Int, colour: Colour
    )? {
        guard de265_get_chroma_format(image) == de265_chroma_420 else { return nil }
        let width = Int(de265_get_image_width(image, 0))
        let height = Int(de265_get_image_height(image, 0))
        guard width > 0, height > 0 else { return nil }
        for channel in 0..<3 {
            guard de265_get_bits_per_pixel(image, Int32(channel)) == 8 else { return nil }
            let shift = channel == 0 ? 0 : 1
            let planeWidth = Int(de265_get_image_width(image, Int32(channel)))
            let planeHeight = Int(de265_get_image_height(image, Int32(channel)))
            guard planeWidth == (width + shift) >> shift, planeHeight == (height + shift) >> shift else { return nil }
            var stride: Int32 = 0
            guard let plane = de265_get_image_plane(image, Int32(channel), &stride), Int(stride) >= planeWidth else { return nil }
            picture.paste(
                plane, stride: Int(stride), width: planeWidth, height: planeHeight, channel: channel, x: placement.x >> shift,
                y: placement.y >> shift)
        }
        let colour = Colour(matrix: Int(de265_get_image_matrix_coefficients(image)), fullRange: de265_get_image_full_range_flag(image) != 0)
        return (width, height, colour)
    }
}

/// Writes decoded planes into a `YCbCrPlanes` that outlives it; tiles that do not overlap may
/// be written from several threads at once.
struct PlaneWriter: @unchecked Sendable {
    var width: Int
    var height: Int
    var planes: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>)

    /// Copies a `width` × `height` plane to (`x`, `y`) of `channel` (0 luma, 1 Cb, 2 Cr),
    /// leaving out what falls outside the picture.
    func paste(_ source: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int, channel: Int, x: Int, y: Int) {
        let shift = channel == 0 ? 0 : 1
        let targetWidth = (self.width + shift) >> shift
        let targetHeight = (self.height + shift) >> shift
        let target = channel == 0 ? planes.0 : channel == 1 ? planes.1 : planes.2
        let columns = min(width, targetWidth - x)
        let rows = min(height, targetHeight - y)
        guard columns > 0, rows > 0 else { return }
        for row in 0..<rows {
            (target + (y + row) * targetWidth + x).update(from: source + row * stride, count: columns)
        }
    }
}
