import SystemKit

/// The entropy-coded data of one baseline scan, read for what a 1/8 scale needs. A block
/// that becomes one pixel needs only its DC coefficient: every AC code is still parsed (its
/// length says where the next block starts) but nothing is stored for it, and the pixel is
/// the block's mean, as a 1x1 inverse DCT gives it. A block of a chroma component that is
/// subsampled 2x both ways becomes 2x2 pixels, the means of its four 4x4 quarters (what
/// libjpeg-turbo's 1/8 scale gives chroma instead of repeating one value): those depend on
/// the coefficients whose frequencies are 0 or odd both ways, so that block's AC values are
/// read too.
struct JPEGDCScan {
    /// One component of the scan: its tables, quantiser, sampling and where its samples go.
    struct Component {
        var plane: Int
        var dc: Int
        var ac: Int
        /// The quantiser of the DC coefficient.
        var quantDC: Int32
        var h: Int
        var v: Int
        /// Samples per block side: 1, or 2 for quarter means.
        var scale: Int
        /// Samples per row of the plane.
        var stride: Int
        /// Blocks across and down this component has in a scan of its own.
        var blocksWide: Int
        var blocksHigh: Int
    }

    /// Why a scan was not read to the end: the caller then hands the file to libjpeg-turbo,
    /// which knows how to make the best of it.
    enum Failure: Error {
        case corrupt
    }

    let components: [Component]
    /// Each component's quantisation table in zigzag order.
    let quantTables: [[Int32]]
    /// Indexed by DC table id 0-3, then AC table id 0-3 at 4-7.
    let tables: [JPEGHuffmanTable?]
    let restartInterval: Int
    /// MCUs across and down when the scan interleaves components.
    let mcusWide: Int
    let mcusHigh: Int

    /// Fixed-point weights of the quarter means: 2^20 is 1.
    static let weightBits = 20

    /// Decodes the scan that starts at `start` in `data`, writing each component's samples
    /// at its plane's offset in `samples`; returns where the marker after the scan starts.
    func decode(_ data: UnsafeBufferPointer<UInt8>, from start: Int, into samples: UnsafeMutableBufferPointer<UInt8>) throws(Failure)
        -> Int
    {
        let single = components.count == 1
        let mcusAcross = single ? components[0].blocksWide : mcusWide
        let mcusDown = single ? components[0].blocksHigh : mcusHigh
        let blocksPerMCU = single ? 1 : components.reduce(0) { $0 + $1.h * $1.v }
        // Each block takes at least two bits (a DC code and an AC code), so a short file that
        // claims a huge picture is turned away before any work.
        guard (data.count - start) * 4 >= mcusAcross * mcusDown * blocksPerMCU else { throw .corrupt }
        // The per-block work in flat memory: table lookups side by side, one entry per block
        // of an MCU saying which component and sample offset it has. Raw memory rather than
        // an array's closure, so that the bit reader can stay in registers.
        let width = JPEGHuffmanTable.lookupBits
        let lookups = UnsafeMutablePointer<UInt16>.allocate(capacity: 8 << width)
        defer { lookups.deallocate() }
        lookups.initialize(repeating: 0, count: 8 << width)
        let acLookups = UnsafeMutablePointer<UInt32>.allocate(capacity: 4 << width)
        defer { acLookups.deallocate() }
        acLookups.initialize(repeating: 0, count: 4 << width)
        for (id, table) in tables.enumerated() {
            guard let table else { continue }
            for (i, entry) in table.fast.enumerated() { lookups[(id << width) + i] = entry }
            if id >= 4 {
                for (i, entry) in table.pairs.enumerated() { acLookups[((id - 4) << width) + i] = entry }
            }
        }
        // Per component and zigzag position: the weights of the three quarter terms,
        // dequantisation included.
        let weights = UnsafeMutablePointer<Int64>.allocate(capacity: components.count * 192)
        defer { weights.deallocate() }
        weights.initialize(repeating: 0, count: components.count * 192)
        for i in components.indices {
            for k in 0..<64 {
                let (term, weight) = Self.quarterWeight(zigzag: k)
                guard term > 0 else { continue }
                weights[i * 192 + 3 * k + Int(term) - 1] =
                    Int64((weight * Double(1 << Self.weightBits)).rounded()) * Int64(quantTables[i][k])
            }
        }
        var layout: [(component: Int, offset: Int)] = []
        for (i, component) in components.enumerated() {
            let (across, down) = single ? (1, 1) : (component.h, component.v)
            for by in 0..<down {
                for bx in 0..<across { layout.append((i, by * component.scale * component.stride + bx * component.scale)) }
            }
        }
        var reader = JPEGBitReader(data: data, position: start, tables: tables)
        var predictions = [Int32](repeating: 0, count: components.count)
        var untilRestart = restartInterval
        var expectedRestart: UInt8 = 0
        let half = Int64(1) << (Self.weightBits - 1)
        for my in 0..<mcusDown {
            for mx in 0..<mcusAcross {
                if restartInterval > 0 {
                    if untilRestart == 0 {
                        guard reader.skipRestart(expected: 0xD0 | expectedRestart) else { throw .corrupt }
                        expectedRestart = (expectedRestart + 1) & 7
                        for i in predictions.indices { predictions[i] = 0 }
                        untilRestart = restartInterval
                    }
                    untilRestart -= 1
                }
                for block in layout {
                    let c = block.component
                    let component = components[c]
                    let origin =
                        single
                        ? component.plane + (my * component.stride + mx) * component.scale
                        : component.plane + (my * component.v * component.stride + mx * component.h) * component.scale
                    let diff = try reader.dcDifference(lookups + (component.dc << width), table: component.dc)
                    // libjpeg keeps the running DC as an int but stores each block's as 16 bits.
                    let prediction = predictions[c] &+ diff
                    predictions[c] = prediction
                    let coefficient = Int32(Int16(truncatingIfNeeded: prediction))
                    if component.scale == 1 {
                        samples[origin + block.offset] = UInt8(clamping: (coefficient &* component.quantDC &+ 4) >> 3 &+ 128)
                        try reader.skipAC(acLookups + (component.ac << width), table: 4 + component.ac)
                        continue
                    }
                    let mean = Int64(coefficient) * Int64(component.quantDC) << (Self.weightBits - 3)
                    let (across, down, both) = try reader.quarterTerms(
                        lookups + ((4 + component.ac) << width), table: 4 + component.ac, weights: weights + c * 192)
                    let at = origin + block.offset
                    func sample(_ value: Int64) -> UInt8 { UInt8(clamping: (value + half) >> Self.weightBits + 128) }
                    samples[at] = sample(mean + across + down + both)
                    samples[at + 1] = sample(mean - across + down - both)
                    samples[at + component.stride] = sample(mean + across - down - both)
                    samples[at + component.stride + 1] = sample(mean - across - down + both)
                }
            }
        }
        guard !reader.ranPastData else { throw .corrupt }
        return reader.markerPosition()
    }

    /// Zigzag order to natural (row-major) order of the 64 coefficients (ITU T.81 A.3.6).
    static let natural: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// What the coefficient at zigzag position `k` adds to the mean of a block's top-left
    /// 4x4 quarter, per unit of its dequantised value, and to which term: 1 when it changes
    /// sign between left and right quarters (odd horizontal frequency, none vertical), 2
    /// between top and bottom, 3 both; 0 when it adds nothing (the DC is handled apart, and
    /// an even non-zero frequency averages to zero over half a block). From the inverse DCT
    /// f(x,y) = 1/4 sum C(u) C(v) F(v,u) cos((2x+1)u pi/16) cos((2y+1)v pi/16).
    static func quarterWeight(zigzag k: Int) -> (term: UInt8, weight: Double) {
        let index = natural[k]
        let (v, u) = (index / 8, index % 8)
        func factor(_ frequency: Int) -> Double {
            if frequency == 0 { return 1 / 2.0.squareRoot() }
            if frequency % 2 == 0 { return 0 }
            var sum = 0.0
            for x in 0..<4 { sum += Math.cosine(Double(2 * x + 1) * Double(frequency) * Double.pi / 16) }
            return sum / 4
        }
        let weight = factor(u) * factor(v) / 4
        guard k > 0, weight != 0 else { return (0, 0) }
        return (UInt8((u % 2) | (v % 2) << 1), weight)
    }
}

/// Reads the entropy-coded bytes of a scan as a stream of bits: removes the 0x00 stuffed
/// after each 0xFF, stops at a marker and supplies zero bits past it (counting them, so that
/// a scan that needed them is known to be cut short).
struct JPEGBitReader {
    private let data: UnsafeBufferPointer<UInt8>
    private var position: Int
    /// The next bits, first bit at the top; `count` of them are real or padding.
    private var bits: UInt64 = 0
    private var count = 0
    /// Zero bits supplied past a marker or the end of the data and not yet read.
    private var padding = 0
    private var atMarker = false

    /// For codes longer than the lookup (the scan's tables, as `JPEGDCScan.tables`).
    private let tables: [JPEGHuffmanTable?]

    init(data: UnsafeBufferPointer<UInt8>, position: Int, tables: [JPEGHuffmanTable?]) {
        self.data = data
        self.position = position
        self.tables = tables
    }

    /// Whether a symbol was read from padding, not from the scan's bytes.
    var ranPastData: Bool { padding > count }

    /// Where the marker that ended the scan starts (the end of the data when there is none).
    mutating func markerPosition() -> Int {
        seekMarker()
        return position
    }

    /// Drops what is buffered and reads on to the next marker.
    private mutating func seekMarker() {
        while !atMarker {
            bits = 0
            count = 0
            refill()
        }
    }

    @inline(__always)
    private mutating func refill() {
        // Most of the time the next eight bytes hold no 0xFF: take as many whole bytes as
        // fit at once. Otherwise (about one refill in thirty on noisy pictures) byte by byte.
        if !atMarker, position + 8 <= data.count {
            let word = UInt64(bigEndian: UnsafeRawPointer(data.baseAddress! + position).loadUnaligned(as: UInt64.self))
            let inverted = ~word
            if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                let taken = (64 &- count) >> 3
                bits |= word &>> UInt64(count)
                count &+= taken &<< 3
                position &+= taken
                // Bits of a byte only partly taken are dropped so that the buffer holds whole bytes.
                if count < 64 { bits &= ~(UInt64.max &>> UInt64(count)) }
                return
            }
        }
        while count <= 56 {
            if atMarker || position >= data.count {
                atMarker = true
                padding += 64 - count
                count = 64
                return
            }
            let byte = data[position]
            if byte == 0xFF {
                // 0xFF 0x00 is a data byte 0xFF; 0xFF then anything else is a marker.
                guard position + 1 < data.count, data[position + 1] == 0 else {
                    atMarker = true
                    continue
                }
                position += 2
            } else {
                position += 1
            }
            bits |= UInt64(byte) &<< UInt64(56 - count)
            count += 8
        }
    }

    @inline(__always)
    private mutating func drop(_ n: Int) {
        bits = bits &<< UInt64(n)
        count &-= n
    }

    /// A code longer than the lookup: tries each length in turn.
    @inline(never)
    private mutating func slowSymbol(_ id: Int) throws(JPEGDCScan.Failure) -> Int {
        guard let table = tables[id] else { throw .corrupt }
        var length = JPEGHuffmanTable.lookupBits + 1
        while length <= 16 {
            let code = Int32(truncatingIfNeeded: bits &>> UInt64(64 - length))
            if code <= table.maxCode[length] {
                let index = Int(code &+ table.valueOffset[length])
                guard index >= 0, index < table.symbols.count else { throw .corrupt }
                drop(length)
                return Int(table.symbols[index])
            }
            length += 1
        }
        throw .corrupt
    }

    /// `refill` for a loop that keeps the bit buffer in locals: hands them to the reader
    /// and takes them back.
    @inline(__always)
    private mutating func refill(_ bits: inout UInt64, _ count: inout Int) {
        (self.bits, self.count) = (bits, count)
        refill()
        (bits, count) = (self.bits, self.count)
    }

    /// `slowSymbol` for a loop that keeps the bit buffer in locals.
    @inline(__always)
    private mutating func slowSymbol(_ id: Int, _ bits: inout UInt64, _ count: inout Int) throws(JPEGDCScan.Failure) -> Int {
        (self.bits, self.count) = (bits, count)
        let symbol = try slowSymbol(id)
        (bits, count) = (self.bits, self.count)
        return symbol
    }

    /// The DC difference of the next block (ITU T.81 F.2.2.1).
    @inline(__always)
    mutating func dcDifference(_ fast: UnsafePointer<UInt16>, table: Int) throws(JPEGDCScan.Failure) -> Int32 {
        if count < 32 { refill() }
        let entry = fast[Int(bits &>> UInt64(64 - JPEGHuffmanTable.lookupBits))]
        let size: Int
        if entry != 0 {
            drop(Int(entry & 0x1F))
            size = Int(entry >> 8)
        } else {
            size = try slowSymbol(table)
        }
        guard size > 0 else { return 0 }
        let raw = Int32(truncatingIfNeeded: bits &>> UInt64(64 - size))
        drop(size)
        // The extra bits are the value when its top bit is set, else value - (2^size - 1).
        return raw < Int32(1) &<< Int32(size - 1) ? raw &- (Int32(1) &<< Int32(size)) &+ 1 : raw
    }

    /// Reads past the 63 AC coefficients of the current block. The bit buffer lives in
    /// locals here (this loop is nearly all of the decoder's time) and goes back to the
    /// reader only around a refill or a long code.
    @inline(__always)
    mutating func skipAC(_ pairs: UnsafePointer<UInt32>, table: Int) throws(JPEGDCScan.Failure) {
        var bits = self.bits
        var count = self.count
        defer {
            self.bits = bits
            self.count = count
        }
        var k = 1
        while k < 64 {
            if count < 32 { refill(&bits, &count) }
            let entry = pairs[Int(bits &>> UInt64(64 - JPEGHuffmanTable.lookupBits))]
            if entry != 0 {
                // The block may end with the first symbol (end of block, or its run reaches
                // the last coefficient); the second then belongs to the next block.
                if k &+ Int(entry >> 24) >= 64 {
                    let length = Int(entry >> 16 & 0x3F)
                    bits = bits &<< UInt64(length)
                    count &-= length
                    return
                }
                // The shift takes the low six bits of the entry, the total length, as they are.
                bits = bits &<< UInt64(entry)
                count &-= Int(entry & 0x3F)
                k &+= Int(entry >> 8 & 0xFF)
                continue
            }
            let symbol = try slowSymbol(table, &bits, &count)
            let run = symbol >> 4
            let extra = symbol & 15
            if extra == 0 {
                if run != 15 { return }
                k &+= 16
            } else {
                bits = bits &<< UInt64(extra)
                count &-= extra
                k &+= run + 1
            }
        }
    }

    /// Reads the 63 AC coefficients of the current block and sums them into its quarter
    /// terms (see `JPEGDCScan.quarterWeight`): across, down and both, in 2^20 fixed point.
    /// `weights` holds three per zigzag position, one per term (zero where it adds nothing).
    @inline(__always)
    mutating func quarterTerms(_ fast: UnsafePointer<UInt16>, table: Int, weights: UnsafePointer<Int64>) throws(JPEGDCScan.Failure)
        -> (Int64, Int64, Int64)
    {
        var bits = self.bits
        var count = self.count
        defer {
            self.bits = bits
            self.count = count
        }
        var sums: (Int64, Int64, Int64) = (0, 0, 0)
        var k = 1
        while k < 64 {
            if count < 32 { refill(&bits, &count) }
            let entry = fast[Int(bits &>> UInt64(64 - JPEGHuffmanTable.lookupBits))]
            let symbol: Int
            if entry != 0 {
                // The code's length is the entry's low six bits, which is all the shift takes.
                bits = bits &<< UInt64(entry)
                count &-= Int(entry & 0x1F)
                symbol = Int(entry >> 8)
            } else {
                symbol = try slowSymbol(table, &bits, &count)
            }
            let size = symbol & 15
            if size == 0 {
                if symbol != 0xF0 { break }
                k &+= 16
                continue
            }
            k &+= symbol >> 4
            let raw = Int64(truncatingIfNeeded: bits &>> UInt64(64 - size))
            bits = bits &<< UInt64(size)
            count &-= size
            if k < 64 {
                // The extra bits are the value when its top bit is set, else value - (2^size - 1).
                let negative = ((raw &>> Int64(size - 1)) & 1) &- 1
                let value = raw &+ (negative & (1 &- (Int64(1) &<< Int64(size))))
                let w = weights + 3 &* k
                sums.0 &+= value &* w[0]
                sums.1 &+= value &* w[1]
                sums.2 &+= value &* w[2]
            }
            k &+= 1
        }
        return sums
    }

    /// At a restart interval's end: drops the bits left in the byte, expects RSTn and
    /// steps past it.
    mutating func skipRestart(expected: UInt8) -> Bool {
        guard !ranPastData else { return false }
        seekMarker()
        guard position + 1 < data.count, data[position + 1] == expected else { return false }
        position += 2
        bits = 0
        count = 0
        padding = 0
        atMarker = false
        return true
    }
}
