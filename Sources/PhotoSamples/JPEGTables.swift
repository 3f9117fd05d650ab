/// The example tables of ITU-T T.81 Annex K, used by most encoders: quantisation
/// (K.1, K.2) and Huffman (K.3, K.5), plus the zig-zag scan order.
enum JPEGTables {
    // swift-format-ignore
    /// K.1, luminance quantisation, in natural (row-major) order.
    static let luminanceQuantisation: [Int] = [
        16, 11, 10, 16, 24, 40, 51, 61,
        12, 12, 14, 19, 26, 58, 60, 55,
        14, 13, 16, 24, 40, 57, 69, 56,
        14, 17, 22, 29, 51, 87, 80, 62,
        18, 22, 37, 56, 68, 109, 103, 77,
        24, 35, 55, 64, 81, 104, 113, 92,
        49, 64, 78, 87, 103, 121, 120, 101,
        72, 92, 95, 98, 112, 100, 103, 99,
    ]

    // swift-format-ignore
    /// K.2, chrominance quantisation, in natural order.
    static let chrominanceQuantisation: [Int] = [
        17, 18, 24, 47, 99, 99, 99, 99,
        18, 21, 26, 66, 99, 99, 99, 99,
        24, 26, 56, 99, 99, 99, 99, 99,
        47, 66, 99, 99, 99, 99, 99, 99,
    ] + [Int](repeating: 99, count: 32)

    /// Code counts per length 1...16 and symbols, as a DHT segment carries them.
    struct HuffmanSpec {
        let counts: [UInt8]
        let symbols: [UInt8]
    }

    static let dcLuminance = HuffmanSpec(counts: [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], symbols: Array(0...11))
    static let dcChrominance = HuffmanSpec(counts: [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], symbols: Array(0...11))

    static let acLuminance = HuffmanSpec(
        counts: [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
        symbols: acSymbols(shortCodes: [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
            0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
            0x24, 0x33, 0x62, 0x72, 0x82,
        ]))

    static let acChrominance = HuffmanSpec(
        counts: [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
        symbols: acSymbols(shortCodes: [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
            0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
            0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1,
        ]))

    /// An AC table's symbols in K.5's order: those of the codes up to 15 bits as listed, then
    /// the 16-bit codes, which take every other AC symbol (end of block 0x00, sixteen zeros
    /// 0xF0, run/size pairs with sizes 1...10) in ascending order.
    static func acSymbols(shortCodes: [UInt8]) -> [UInt8] {
        let every = [0x00, 0xF0] + (0...15).flatMap { run in (1...10).map { run << 4 | $0 } }
        return shortCodes + every.sorted().map { UInt8($0) }.filter { !shortCodes.contains($0) }
    }

    /// `zigZag[k]` is the natural index of the k-th coefficient in scan order, found by
    /// walking the anti-diagonals alternately up and down.
    static let zigZag: [Int] = {
        var order: [Int] = []
        for diagonal in 0..<15 {
            let rows = max(0, diagonal - 7)...min(7, diagonal)
            // Even diagonals run bottom-left to top-right, odd ones the other way.
            let walk = diagonal % 2 == 0 ? Array(rows.reversed()) : Array(rows)
            for row in walk { order.append(row * 8 + (diagonal - row)) }
        }
        return order
    }()

    /// A quantisation table scaled for `quality` 1...100 the way the IJG library does
    /// (50 is the table as printed), in natural order.
    static func scaled(_ table: [Int], quality: Int) -> [Int] {
        let q = min(max(quality, 1), 100)
        let factor = q < 50 ? 5000 / q : 200 - 2 * q
        return table.map { min(max(($0 * factor + 50) / 100, 1), 255) }
    }
}

/// Canonical Huffman codes built from a table's counts and symbols (T.81 Annex C).
struct HuffmanCodes {
    /// Code bits and length by symbol value.
    var code = [UInt32](repeating: 0, count: 256)
    var length = [UInt8](repeating: 0, count: 256)

    init(_ spec: JPEGTables.HuffmanSpec) {
        var next: UInt32 = 0
        var symbolIndex = 0
        for bitLength in 1...16 {
            for _ in 0..<Int(spec.counts[bitLength - 1]) {
                let symbol = Int(spec.symbols[symbolIndex])
                code[symbol] = next
                length[symbol] = UInt8(bitLength)
                next += 1
                symbolIndex += 1
            }
            next <<= 1
        }
    }
}
