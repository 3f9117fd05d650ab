import CHeif
import Dispatch

// The primary picture of a HEIC in the HEVC decoder's own YCbCr 4:2:0, for a JPEG encoder
// that takes those planes as they are. libheif 1.15 always turns a decoded picture into RGB,
// which the JPEG encoder then turns back into YCbCr: skipping both takes about a sixth off a
// HEIC's transcode in CPU time. It is taken only where it gives the picture libheif gives:
//
// - the primary item is one `hvc1` image or a `grid` of `hvc1` tiles, without alpha;
// - its colour is BT.601 (matrix 5 or 6, JPEG's own, or 2, unspecified) at full range, by
//   the `colr` nclx box if there is one and by the stream's VUI in any case;
// - its transforms are rotations (`irot`) of a picture with even sides; a mirror (`imir`)
//   or a crop (`clap`) is left to libheif, as are 10-bit and 4:2:2/4:4:4 pictures;
// - the upright size agrees with libheif's.
//
// Anything else returns nil and the caller decodes through libheif as before. Chroma is
// taken as decoded, where libheif upsamples it to RGB by repeating samples: a JPEG reader's
// smooth upsampling makes the two differ by a few levels at sharp colour edges.

extension HEIFCodec {
    /// The upright primary picture of `bytes` as 8-bit YCbCr 4:2:0 in BT.601 at full range
    /// (a JPEG's colour), or nil when it cannot be had without libheif's conversion.
    /// `threads` caps how many grid tiles are decoded at once.
    static func primaryYCbCr(_ bytes: [UInt8], threads: Int) throws(ImagingError) -> YCbCrPlanes? {
        let expected: (width: Int, height: Int, nclx: HEVCItemDecoder.Colour?)? =
            try bytes.withUnsafeBytes { raw in
                try? withPrimary(raw, threads: 1) {
                    primary throws(ImagingError) -> (width: Int, height: Int, nclx: HEVCItemDecoder.Colour?)? in
                    guard heif_image_handle_has_alpha_channel(primary) == 0, heif_image_handle_get_luma_bits_per_pixel(primary) == 8,
                        heif_image_handle_get_chroma_bits_per_pixel(primary) == 8
                    else { return nil }
                    var profile: UnsafeMutablePointer<heif_color_profile_nclx>? = nil
                    var nclx: HEVCItemDecoder.Colour? = nil
                    if heif_image_handle_get_nclx_color_profile(primary, &profile).code == heif_error_Ok, let profile {
                        nclx = HEVCItemDecoder.Colour(
                            matrix: Int(profile.pointee.matrix_coefficients.rawValue), fullRange: profile.pointee.full_range_flag != 0)
                        heif_nclx_color_profile_free(profile)
                    }
                    return (Int(heif_image_handle_get_width(primary)), Int(heif_image_handle_get_height(primary)), nclx)
                }
            } ?? nil
        guard let expected, expected.nclx.map(isJPEGColour) ?? true, let table = HEIFItemTable(bytes) else { return nil }
        guard let (planes, colour) = try decodeTiles(table, threads: threads), isJPEGColour(colour) else { return nil }
        var turns = 0
        for property in table.properties(of: table.primary) {
            switch property.type {
            case "irot": turns += Int(table.u8(property.payload, 0) ?? 0) & 3
            case "imir", "clap": return nil
            default: continue
            }
        }
        if turns % 4 != 0, planes.width % 2 != 0 || planes.height % 2 != 0 { return nil }
        let upright = planes.rotatedCounterClockwise(turns)
        guard upright.width == expected.width, upright.height == expected.height else { return nil }
        return upright
    }

    /// Whether pictures of this colour keep their colours as a JPEG's YCbCr: BT.601 at full
    /// range. libheif converts an unspecified matrix (2, what phones write) as BT.601 too.
    private static func isJPEGColour(_ colour: HEVCItemDecoder.Colour) -> Bool {
        [2, 5, 6].contains(colour.matrix) && colour.fullRange
    }

    /// The primary item's coded picture (before any rotation) and its decoder's colour.
    private static func decodeTiles(_ table: HEIFItemTable, threads: Int) throws(ImagingError) -> (YCbCrPlanes, HEVCItemDecoder.Colour)? {
        let tiles: [UInt32]
        let columns: Int
        let size: (width: Int, height: Int)
        switch table.types[table.primary] {
        case "hvc1":
            guard let extent = table.spatialExtent(of: table.primary) else { return nil }
            (tiles, columns, size) = ([table.primary], 1, extent)
        case "grid":
            guard let grid = table.data(of: table.primary, limit: 64), grid.count >= 4,
                let canvas = table.declaredCanvas(of: table.primary)
            else { return nil }
            let rows = Int(grid[2]) + 1
            columns = Int(grid[3]) + 1
            size = canvas
            tiles = table.references("dimg", from: table.primary)
            guard tiles.count == rows * columns else { return nil }
        default:
            return nil
        }
        try DecodeLimits.check(width: size.width, height: size.height, maxPixels: DecodeLimits.maxHEIFPixels)
        guard tiles.count <= 4096, let tileSize = table.spatialExtent(of: tiles[0]), tileSize.width > 0, tileSize.height > 0 else {
            return nil
        }
        let rows = tiles.count / columns
        // Every tile but those of the last row and column is whole, and lands on even samples.
        guard tiles.count == 1 || (tileSize.width % 2 == 0 && tileSize.height % 2 == 0),
            columns * tileSize.width >= size.width, (columns - 1) * tileSize.width < size.width,
            rows * tileSize.height >= size.height, (rows - 1) * tileSize.height < size.height
        else { return nil }
        var configurations: [HEVCItemDecoder.Configuration] = []
        for tile in tiles {
            guard table.types[tile] == "hvc1", table.spatialExtent(of: tile).map({ $0 == tileSize }) == true else { return nil }
            let properties = table.properties(of: tile)
            guard !properties.contains(where: { ["irot", "imir", "clap"].contains($0.type) }),
                let hvcC = properties.first(where: { $0.type == "hvcC" }),
                let configuration = HEVCItemDecoder.Configuration(table, hvcC.payload)
            else { return nil }
            configurations.append(configuration)
        }
        var picture = YCbCrPlanes(width: size.width, height: size.height)
        let colours = picture.luma.withUnsafeMutableBufferPointer { luma in
            picture.cb.withUnsafeMutableBufferPointer { cb in
                picture.cr.withUnsafeMutableBufferPointer { cr in
                    let writer = PlaneWriter(
                        width: size.width, height: size.height, planes: (luma.baseAddress!, cb.baseAddress!, cr.baseAddress!))
                    return decode(tiles, configurations, table, columns: columns, tileSize: tileSize, into: writer, threads: threads)
                }
            }
        }
        guard let first = colours.first, let first, colours.allSatisfy({ $0 == first }) else { return nil }
        return (picture, first)
    }

    /// Decodes each tile into its place, up to `threads` at once; each tile's colour, nil for
    /// one that failed or was not of `tileSize`.
    private static func decode(
        _ tiles: [UInt32], _ configurations: [HEVCItemDecoder.Configuration], _ table: HEIFItemTable, columns: Int,
        tileSize: (width: Int, height: Int), into writer: PlaneWriter, threads: Int
    ) -> [HEVCItemDecoder.Colour?] {
        let results = TileResults(count: tiles.count)
        let workers = max(1, min(threads, tiles.count))
        let work: @Sendable (Int) -> Void = { worker in
            for index in stride(from: worker, to: tiles.count, by: workers) {
                guard let data = table.data(of: tiles[index]) else { continue }
                let place = HEVCItemDecoder.Placement(x: index % columns * tileSize.width, y: index / columns * tileSize.height)
                guard let decoded = HEVCItemDecoder.decode(data, configuration: configurations[index], into: writer, at: place),
                    decoded.width == tileSize.width, decoded.height == tileSize.height
                else { continue }
                results.set(index, decoded.colour)
            }
        }
        if workers == 1 {
            work(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: workers, execute: work)
        }
        return results.values
    }
}

/// Each tile's outcome, written by the thread that decoded it (one slot per tile, no slot
/// written twice) and read once all threads are done.
private final class TileResults: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<HEVCItemDecoder.Colour?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit { slots.deallocate() }

    var values: [HEVCItemDecoder.Colour?] { Array(slots) }

    func set(_ index: Int, _ colour: HEVCItemDecoder.Colour) { slots[index] = colour }
}
