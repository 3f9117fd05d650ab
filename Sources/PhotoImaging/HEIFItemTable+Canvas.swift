// The canvas a derived HEIF image declares in its own data: a `grid` (tiles) or an `iovl`
// (overlay) names its output size there, apart from its `ispe`, and libheif 1.15 allocates
// planes of that size before it decodes a single tile. An 820-byte file whose overlay
// declared 24,929 × 24,929 samples cost a decoder process gigabytes; the canvases are
// therefore checked against `DecodeLimits` before libheif is asked for pixels.

extension HEIFItemTable {
    /// The output size a `grid` or `iovl` item declares in its data; nil for other items
    /// and for data too short to hold one.
    func declaredCanvas(of id: UInt32) -> (width: Int, height: Int)? {
        // version, flags, then for a grid its rows and columns, for an overlay its four
        // 16-bit fill values; flag bit 0 makes the size fields 32-bit.
        let sizeAt: Int
        switch types[id] {
        case "grid": sizeAt = 4
        case "iovl": sizeAt = 10
        default: return nil
        }
        // An overlay's data holds an offset per image it places: up to 65,535 of them.
        guard let data = self.data(of: id, limit: 1 << 20), data.count >= 2 else { return nil }
        let wide = data[1] & 1 == 1
        let fieldSize = wide ? 4 : 2
        guard data.count >= sizeAt + 2 * fieldSize else { return nil }
        func field(_ at: Int) -> Int { data[at..<(at + fieldSize)].reduce(0) { $0 << 8 | Int($1) } }
        return (field(sizeAt), field(sizeAt + fieldSize))
    }

    /// Throws `tooLarge` when any grid or overlay of the file declares a canvas outside
    /// `maxPixels`, and `malformed` when one's canvas cannot be read. Every such item is
    /// checked, referenced from the picture to decode or not: libheif and this table may
    /// disagree about references in a damaged file, never about a canvas both read.
    func checkDerivedCanvases(maxPixels: Int) throws(ImagingError) {
        for (item, type) in types where type == "grid" || type == "iovl" {
            guard let canvas = declaredCanvas(of: item) else { throw .malformed("HEIF: a derived image without its size") }
            try DecodeLimits.check(width: canvas.width, height: canvas.height, maxPixels: maxPixels)
        }
    }
}
