/// One Huffman table of a baseline JPEG (a DHT segment's class and id), prepared for the
/// DC-only scan of `JPEGEighthScale`: a lookup of the next `lookupBits` bits that gives, in
/// one step, how many bits a symbol takes together with its extra bits and what it does to
/// the coefficient index; codes longer than the lookup go the canonical way (ITU T.81 F.2.2.3).
struct JPEGHuffmanTable {
    /// Bits looked at in one step. Codes up to this long (nearly all in practice) are decoded
    /// by one table read; 2^11 entries of 16 bits keep both AC tables inside the L1 cache.
    static let lookupBits = 11

    /// By the next `lookupBits` bits: 0 when the code is longer, else the code's length
    /// (bits 0-4) and its symbol (bits 8-15).
    private(set) var fast: [UInt16]
    /// AC tables only, by the next `lookupBits` bits: up to two symbols skipped in one step.
    /// Bits 16-21 are the first symbol's length with its extra bits, bits 24-30 how far it
    /// moves the coefficient index (run + 1, 16 for ZRL, 64 for end of block); bits 0-5 and
    /// 8-15 the same for both symbols together when the second one's code and extra bits
    /// also lie within the looked-at bits, else again the first's. The total length is
    /// lowest so that it can shift the bit buffer as it is. 0 for a long code.
    private(set) var pairs: [UInt32]
    /// For each code length 1...16 (index = length): the largest code of that length, -1
    /// when none, and what to add to a code of that length to get its symbol's index.
    private(set) var maxCode: [Int32]
    private(set) var valueOffset: [Int32]
    private(set) var symbols: [UInt8]

    /// Builds the table from a DHT's 16 counts and its symbols; nil when the counts do not
    /// describe a valid prefix code or a symbol is impossible for its class.
    init?(counts: [UInt8], symbols: [UInt8], isAC: Bool) {
        guard counts.count == 16, symbols.count == counts.reduce(0, { $0 + Int($1) }), symbols.count <= 256 else { return nil }
        if !isAC, symbols.contains(where: { $0 > 15 }) { return nil }
        let k = Self.lookupBits
        var fast = [UInt16](repeating: 0, count: 1 << k)
        var maxCode = [Int32](repeating: -1, count: 18)
        var valueOffset = [Int32](repeating: 0, count: 18)
        var code: Int32 = 0
        var index = 0
        for length in 1...16 {
            let n = Int(counts[length - 1])
            valueOffset[length] = Int32(index) - code
            for _ in 0..<n {
                // A prefix code of this length cannot use more codes than the length allows.
                guard code < Int32(1) << length else { return nil }
                let symbol = symbols[index]
                if length <= k {
                    let first = Int(code) << (k - length)
                    for slot in first..<(first + (1 << (k - length))) { fast[slot] = UInt16(length) | UInt16(symbol) << 8 }
                }
                index += 1
                code += 1
            }
            if n > 0 { maxCode[length] = code - 1 }
            code <<= 1
        }
        maxCode[17] = Int32.max
        var pairs: [UInt32] = []
        if isAC {
            let skip = fast.map { entry -> UInt16 in
                guard entry != 0 else { return 0 }
                let run = Int(entry >> 12)
                let extra = Int(entry >> 8 & 15)
                let advance = extra == 0 ? (run == 15 ? 16 : 64) : run + 1
                return UInt16(Int(entry & 0x1F) + extra) | UInt16(advance) << 8
            }
            pairs = [UInt32](repeating: 0, count: 1 << k)
            for bits in 0..<(1 << k) where skip[bits] != 0 {
                let first = UInt32(skip[bits])
                let (length, move) = (Int(first & 0x3F), first >> 8)
                var both = first
                if length < k, move < 64 {
                    // The bits after the first symbol, padded with zeros: a code found there
                    // is real only if it and its extra bits end within the looked-at bits.
                    let second = UInt32(skip[(bits << length) & ((1 << k) - 1)])
                    if second != 0, Int(second & 0x3F) <= k - length {
                        both = UInt32(length) + (second & 0x3F) | (move + (second >> 8)) << 8
                    }
                }
                pairs[bits] = both | first << 16
            }
        }
        self.pairs = pairs
        self.fast = fast
        self.maxCode = maxCode
        self.valueOffset = valueOffset
        self.symbols = symbols
    }
}
