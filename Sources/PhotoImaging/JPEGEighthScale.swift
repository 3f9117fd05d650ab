// A JPEG decoded at 1/8 of its size from what that scale needs: each 8x8 block becomes one
// pixel, its mean (the DC coefficient), except that chroma subsampled 2x both ways gets its
// four quarter means, as libjpeg-turbo gives it. Supports what cameras write: baseline and
// extended sequential Huffman JPEG, 8-bit, grey or YCbCr with whole-number subsampling,
// restart intervals, components in one or several scans. Everything else (progressive,
// arithmetic coding, 12-bit, CMYK, an Adobe RGB transform, 4x chroma subsampling both ways,
// a damaged or truncated scan) returns nil and the caller decodes with libjpeg-turbo. The
// pixels are libjpeg-turbo's (within 2 levels for quarter means, computed in another fixed
// point). Most of the work is stepping over AC codes nothing is kept of; a lookup that
// steps over up to two codes with their extra bits at once makes that cheaper than in
// libjpeg-turbo, which decodes each code, then drops its extra bits.

/// Decodes sequential JPEG at 1/8 scale; nil means "use libjpeg-turbo".
enum JPEGEighthScale {
    private struct FrameComponent {
        var id: UInt8
        var h: Int
        var v: Int
        var quantTable: Int
        /// Samples per block side at 1/8 scale (see `layOut`).
        var scale = 1
        var plane = 0
        var stride = 0
        var rows = 0
        var decoded = false
    }

    /// The picture at 1/8 of its stored size (rounded up), as RGB; nil when the file uses
    /// something this decoder leaves to libjpeg-turbo or its data are damaged.
    static func decode(_ bytes: [UInt8]) -> PixelImage? {
        bytes.withUnsafeBufferPointer { decode($0) }
    }

    private static func decode(_ data: UnsafeBufferPointer<UInt8>) -> PixelImage? {
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var at = 2
        var tables = [JPEGHuffmanTable?](repeating: nil, count: 8)
        var quantTables = [[Int32]?](repeating: nil, count: 4)
        var restartInterval = 0
        var components: [FrameComponent] = []
        var width = 0
        var height = 0
        var samples: [UInt8] = []
        var adobeTransform: UInt8? = nil
        while true {
            // A marker: 0xFF (any number of fill bytes), then its code.
            guard at + 1 < data.count, data[at] == 0xFF else { return nil }
            while at + 1 < data.count, data[at + 1] == 0xFF { at += 1 }
            guard at + 1 < data.count else { return nil }
            let marker = data[at + 1]
            at += 2
            if marker == 0xD9 { break }
            guard at + 2 <= data.count else { return nil }
            let length = Int(data[at]) << 8 | Int(data[at + 1])
            guard length >= 2, at + length <= data.count else { return nil }
            let body = UnsafeBufferPointer(rebasing: data[(at + 2)..<(at + length)])
            switch marker {
            case 0xC0, 0xC1:
                guard components.isEmpty, let frame = frameComponents(body) else { return nil }
                (width, height, components) = frame
            case 0xC4:
                guard readHuffmanTables(body, into: &tables) else { return nil }
            case 0xDB:
                guard readQuantTables(body, into: &quantTables) else { return nil }
            case 0xDD:
                guard body.count == 2 else { return nil }
                restartInterval = Int(body[0]) << 8 | Int(body[1])
            case 0xEE:
                if body.count >= 12, Array(body[0..<5]) == Array("Adobe".utf8) { adobeTransform = body[11] }
            case 0xDA:
                if samples.isEmpty {
                    guard let planes = layOut(&components, width: width, height: height, adobeTransform: adobeTransform) else {
                        return nil
                    }
                    // Every block takes at least two bits of scan data: a file far too short
                    // for the picture it claims is turned away before its planes are allocated.
                    let blocks = components.reduce(0) { $0 + $1.stride * $1.rows / ($1.scale * $1.scale) }
                    guard blocks <= (data.count - at) * 4 else { return nil }
                    samples = [UInt8](repeating: 0, count: planes)
                }
                guard
                    let scan = scan(
                        body, components: &components, tables: tables, quantTables: quantTables, restartInterval: restartInterval,
                        width: width, height: height)
                else { return nil }
                let end: Int
                do throws(JPEGDCScan.Failure) {
                    end = try samples.withUnsafeMutableBufferPointer { (out) throws(JPEGDCScan.Failure) in
                        try scan.decode(data, from: at + length, into: out)
                    }
                } catch {
                    return nil
                }
                at = end
                continue
            case 0xC2, 0xC3, 0xC5...0xC7, 0xC8...0xCB, 0xCD...0xCF, 0xDC, 0xDE, 0xDF:
                // Progressive, lossless, hierarchical or arithmetic: libjpeg-turbo's.
                return nil
            case 0xD0...0xD8, 0x01:
                return nil
            default:
                break
            }
            at += length
        }
        guard !components.isEmpty, components.allSatisfy(\.decoded) else { return nil }
        return compose(samples, components: components, width: width, height: height)
    }

    /// Width, height and components of a sequential 8-bit frame (SOF0/SOF1).
    private static func frameComponents(_ body: UnsafeBufferPointer<UInt8>) -> (Int, Int, [FrameComponent])? {
        guard body.count >= 6, body[0] == 8 else { return nil }
        let height = Int(body[1]) << 8 | Int(body[2])
        let width = Int(body[3]) << 8 | Int(body[4])
        let count = Int(body[5])
        guard width > 0, height > 0, count == 1 || count == 3, body.count == 6 + 3 * count else { return nil }
        var components: [FrameComponent] = []
        for i in 0..<count {
            let sampling = body[7 + 3 * i]
            let (h, v) = (Int(sampling >> 4), Int(sampling & 15))
            guard (1...4).contains(h), (1...4).contains(v), body[8 + 3 * i] < 4 else { return nil }
            guard !components.contains(where: { $0.id == body[6 + 3 * i] }) else { return nil }
            components.append(FrameComponent(id: body[6 + 3 * i], h: h, v: v, quantTable: Int(body[8 + 3 * i])))
        }
        return (width, height, components)
    }

    private static func readHuffmanTables(_ body: UnsafeBufferPointer<UInt8>, into tables: inout [JPEGHuffmanTable?]) -> Bool {
        var at = 0
        while at < body.count {
            guard at + 17 <= body.count else { return false }
            let kind = body[at] >> 4
            let id = Int(body[at] & 15)
            guard kind <= 1, id < 4 else { return false }
            let counts = Array(body[(at + 1)..<(at + 17)])
            let total = counts.reduce(0) { $0 + Int($1) }
            guard at + 17 + total <= body.count else { return false }
            let symbols = Array(body[(at + 17)..<(at + 17 + total)])
            guard let table = JPEGHuffmanTable(counts: counts, symbols: symbols, isAC: kind == 1) else { return false }
            tables[Int(kind) * 4 + id] = table
            at += 17 + total
        }
        return true
    }

    /// The quantisation tables, in zigzag order as stored.
    private static func readQuantTables(_ body: UnsafeBufferPointer<UInt8>, into quantTables: inout [[Int32]?]) -> Bool {
        var at = 0
        while at < body.count {
            let precision = body[at] >> 4
            let id = Int(body[at] & 15)
            guard precision <= 1, id < 4 else { return false }
            let size = precision == 0 ? 64 : 128
            guard at + 1 + size <= body.count else { return false }
            quantTables[id] = (0..<64).map { k in
                precision == 0 ? Int32(body[at + 1 + k]) : Int32(body[at + 1 + 2 * k]) << 8 | Int32(body[at + 2 + 2 * k])
            }
            at += 1 + size
        }
        return true
    }

    /// Gives each component its plane in one sample buffer (MCU-padded, one sample per
    /// block); returns the buffer's size. Nil for colour spaces and subsamplings left to
    /// libjpeg-turbo.
    private static func layOut(_ components: inout [FrameComponent], width: Int, height: Int, adobeTransform: UInt8?) -> Int? {
        guard !components.isEmpty else { return nil }
        if components.count == 3 {
            // RGB stored as is (Adobe transform 0, or components named R, G, B) is not YCbCr.
            if let adobeTransform, adobeTransform != 1 { return nil }
            if components.map(\.id) == Array("RGB".utf8) { return nil }
        }
        let hMax = components.map(\.h).max()!
        let vMax = components.map(\.v).max()!
        guard components.allSatisfy({ hMax % $0.h == 0 && vMax % $0.v == 0 }) else { return nil }
        let mcusWide = (width + 8 * hMax - 1) / (8 * hMax)
        let mcusHigh = (height + 8 * vMax - 1) / (8 * vMax)
        var total = 0
        for i in components.indices {
            // Like libjpeg-turbo, a component subsampled 2x both ways gets 2x2 samples per
            // block (its quarter means) rather than one repeated; other ratios are repeated.
            let (h, v) = (components[i].h, components[i].v)
            if hMax == 2 * h, vMax == 2 * v {
                components[i].scale = 2
            } else if hMax % (2 * h) == 0, vMax % (2 * v) == 0 {
                return nil
            }
            components[i].plane = total
            components[i].stride = mcusWide * h * components[i].scale
            components[i].rows = mcusHigh * v * components[i].scale
            total += components[i].stride * components[i].rows
        }
        guard (try? DecodeLimits.check(width: (width + 7) / 8, height: (height + 7) / 8)) != nil else { return nil }
        return total
    }

    /// The decoder for one SOS: its components, tables and quantisers; nil when the scan is
    /// not a baseline one or refers to something undefined.
    private static func scan(
        _ body: UnsafeBufferPointer<UInt8>, components: inout [FrameComponent], tables: [JPEGHuffmanTable?], quantTables: [[Int32]?],
        restartInterval: Int, width: Int, height: Int
    ) -> JPEGDCScan? {
        guard body.count >= 1 else { return nil }
        let count = Int(body[0])
        guard (1...4).contains(count), body.count == 4 + 2 * count else { return nil }
        // Spectral selection 0-63 and no successive approximation: a sequential scan.
        guard body[1 + 2 * count] == 0, body[2 + 2 * count] == 63, body[3 + 2 * count] == 0 else { return nil }
        let hMax = components.map(\.h).max()!
        let vMax = components.map(\.v).max()!
        var members: [JPEGDCScan.Component] = []
        var quants: [[Int32]] = []
        for i in 0..<count {
            let id = body[1 + 2 * i]
            let dc = Int(body[2 + 2 * i] >> 4)
            let ac = Int(body[2 + 2 * i] & 15)
            guard let index = components.firstIndex(where: { $0.id == id }), !components[index].decoded, dc < 4, ac < 4,
                tables[dc] != nil, tables[4 + ac] != nil, let quant = quantTables[components[index].quantTable]
            else { return nil }
            components[index].decoded = true
            let c = components[index]
            // A component's own size in blocks, as used when it has a scan to itself.
            let wide = ((width * c.h + hMax - 1) / hMax + 7) / 8
            let high = ((height * c.v + vMax - 1) / vMax + 7) / 8
            members.append(
                JPEGDCScan.Component(
                    plane: c.plane, dc: dc, ac: ac, quantDC: quant[0], h: c.h, v: c.v, scale: c.scale, stride: c.stride,
                    blocksWide: wide, blocksHigh: high))
            quants.append(quant)
        }
        guard count == 1 || members.reduce(0, { $0 + $1.h * $1.v }) <= 10 else { return nil }
        return JPEGDCScan(
            components: members, quantTables: quants, tables: tables, restartInterval: restartInterval,
            mcusWide: (width + 8 * hMax - 1) / (8 * hMax), mcusHigh: (height + 8 * vMax - 1) / (8 * vMax))
    }

    /// The planes as RGB at 1/8 scale: chroma repeated over the pixels it covers, YCbCr
    /// turned into RGB with JFIF's equations in 16-bit fixed point, rounded as libjpeg does.
    private static func compose(_ samples: [UInt8], components: [FrameComponent], width: Int, height: Int) -> PixelImage {
        let outWidth = (width + 7) / 8
        let outHeight = (height + 7) / 8
        var pixels = [UInt8](repeating: 0, count: outWidth * outHeight * 3)
        let hMax = components.map(\.h).max()!
        let vMax = components.map(\.v).max()!
        samples.withUnsafeBufferPointer { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                if components.count == 1 {
                    let c = components[0]
                    for y in 0..<outHeight {
                        for x in 0..<outWidth {
                            let value = src[c.plane + y * c.stride + x]
                            let q = (y * outWidth + x) * 3
                            dst[q] = value
                            dst[q + 1] = value
                            dst[q + 2] = value
                        }
                    }
                    return
                }
                let (luma, blue, red) = (components[0], components[1], components[2])
                // Where each output column finds its samples (divisions once per column, not per pixel).
                let lumaColumns = (0..<outWidth).map { $0 * luma.h * luma.scale / hMax }
                let blueColumns = (0..<outWidth).map { $0 * blue.h * blue.scale / hMax }
                let redColumns = (0..<outWidth).map { $0 * red.h * red.scale / hMax }
                let half: Int32 = 1 << 15
                lumaColumns.withUnsafeBufferPointer { lumaColumns in
                    blueColumns.withUnsafeBufferPointer { blueColumns in
                        redColumns.withUnsafeBufferPointer { redColumns in
                            for y in 0..<outHeight {
                                let yRow = luma.plane + (y * luma.v * luma.scale / vMax) * luma.stride
                                let bRow = blue.plane + (y * blue.v * blue.scale / vMax) * blue.stride
                                let rRow = red.plane + (y * red.v * red.scale / vMax) * red.stride
                                var q = y * outWidth * 3
                                for x in 0..<outWidth {
                                    let l = Int32(src[yRow + lumaColumns[x]])
                                    let cb = Int32(src[bRow + blueColumns[x]]) - 128
                                    let cr = Int32(src[rRow + redColumns[x]]) - 128
                                    dst[q] = UInt8(clamping: l + ((91_881 * cr + half) >> 16))
                                    dst[q + 1] = UInt8(clamping: l + ((-22_554 * cb - 46_802 * cr + half) >> 16))
                                    dst[q + 2] = UInt8(clamping: l + ((116_130 * cb + half) >> 16))
                                    q += 3
                                }
                            }
                        }
                    }
                }
            }
        }
        return PixelImage(width: outWidth, height: outHeight, channels: 3, pixels: pixels)
    }
}
