/// An 8-bit YCbCr 4:2:0 picture in three planes, each row packed (no padding): the luma
/// plane is `width` × `height`, the two chroma planes half of that, rounded up. It is what
/// an HEVC decoder produces and what a JPEG encoder takes, so a HEIC picture can become a
/// JPEG without a trip through RGB.
struct YCbCrPlanes {
    var width: Int
    var height: Int
    var luma: [UInt8]
    var cb: [UInt8]
    var cr: [UInt8]

    var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    /// A black picture (luma 0, neutral chroma) of the given size.
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        luma = [UInt8](repeating: 0, count: width * height)
        cb = [UInt8](repeating: 128, count: ((width + 1) / 2) * ((height + 1) / 2))
        cr = cb
    }

    /// The picture turned counter-clockwise by `quarterTurns` × 90° (HEIF's `irot`). The
    /// sides must be even, so that each chroma sample keeps covering the same 2 × 2 luma.
    func rotatedCounterClockwise(_ quarterTurns: Int) -> YCbCrPlanes {
        let turns = ((quarterTurns % 4) + 4) % 4
        guard turns != 0 else { return self }
        let swapped = turns % 2 == 1
        var out = YCbCrPlanes(width: swapped ? height : width, height: swapped ? width : height)
        Self.rotate(luma, width: width, height: height, turns: turns, into: &out.luma)
        Self.rotate(cb, width: chromaWidth, height: chromaHeight, turns: turns, into: &out.cb)
        Self.rotate(cr, width: chromaWidth, height: chromaHeight, turns: turns, into: &out.cr)
        return out
    }

    /// Writes `plane` (`width` × `height`, packed) turned counter-clockwise into `out`.
    private static func rotate(_ plane: [UInt8], width: Int, height: Int, turns: Int, into out: inout [UInt8]) {
        plane.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                switch turns {
                case 1:
                    // Source column x becomes row width-1-x; source row y becomes column y.
                    for y in 0..<height {
                        let row = src.baseAddress! + y * width
                        for x in 0..<width { dst[(width - 1 - x) * height + y] = row[x] }
                    }
                case 2:
                    for y in 0..<height {
                        let row = src.baseAddress! + y * width
                        let target = dst.baseAddress! + (height - 1 - y) * width
                        for x in 0..<width { target[width - 1 - x] = row[x] }
                    }
                default:
                    // Three quarter turns: source column x becomes row x; row y becomes column height-1-y.
                    for y in 0..<height {
                        let row = src.baseAddress! + y * width
                        for x in 0..<width { dst[x * height + (height - 1 - y)] = row[x] }
                    }
                }
            }
        }
    }
}
