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
        guard let data = self.data(of: id, limit: 4096), data.count >= 2 else { return nil }
        let wide = data[1] & 1 == 1
        let fieldSize = wide ? 4 : 2
        guard data.count >= sizeAt + 2 * fieldSize else { return nil }
        func field(_ at: Int) -> Int { data[at..<(at + fieldSize)].reduce(0) { $0 << 8 | Int($1) } }
        return (field(sizeAt), field(sizeAt + fieldSize))
    }

    /// Throws `tooLarge` when `id`, or any image it is derived from (its `dimg` references,
    /// followed to any depth), is a grid or overlay whose declared canvas is outside
    /// `maxPixels`; a derived item whose canvas cannot be read is `malformed`.
    func checkDerivedCanvases(from id: UInt32, maxPixels: Int) throws(ImagingError) {
        var pending = [id]
        var seen: Set<UInt32> = []
        while let item = pending.popLast() {
            guard seen.insert(item).inserted else { continue }
            guard seen.count <= 4096 else { throw .malformed("HEIF: too many derived images") }
            if types[item] == "grid" || types[item] == "iovl" {
                guard let canvas = declaredCanvas(of: item) else { throw .malformed("HEIF: a derived image without its size") }
                try DecodeLimits.check(width: canvas.width, height: canvas.height, maxPixels: maxPixels)
            }
            pending += references("dimg", from: item)
        }
    }
}
