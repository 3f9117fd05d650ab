/// A small baseline JPEG encoder (ITU-T T.81 sequential DCT, 8-bit, Huffman): YCbCr with
/// 4:2:0 or 4:4:4 chroma, the Annex K tables scaled by a quality, and the metadata
/// segments a camera writes (APP1 Exif, APP1 XMP), so photofs can make real photos for
/// its demo, its tests and its benchmarks without any outside tool.
///
/// Built once, it encodes any number of pictures; it holds no mutable state.
public struct JPEGEncoder: Sendable {
    /// How chroma is sampled relative to luma.
    public enum Subsampling: Sendable, Hashable {
        /// Chroma at half width and half height (what cameras write).
        case yuv420
        /// Chroma at full resolution.
        case yuv444
    }

    public let quality: Int
    public let subsampling: Subsampling
    /// Quantisation tables in natural order, as written to DQT.
    private let lumaTable: [Int]
    private let chromaTable: [Int]
    /// 1 / (quantiser × AAN scale) per natural index: one multiply per coefficient.
    private let lumaReciprocals: [Float]
    private let chromaReciprocals: [Float]
    private let dcLuma = HuffmanCodes(JPEGTables.dcLuminance)
    private let acLuma = HuffmanCodes(JPEGTables.acLuminance)
    private let dcChroma = HuffmanCodes(JPEGTables.dcChrominance)
    private let acChroma = HuffmanCodes(JPEGTables.acChrominance)

    public init(quality: Int = 85, subsampling: Subsampling = .yuv420) {
        self.quality = min(max(quality, 1), 100)
        self.subsampling = subsampling
        lumaTable = JPEGTables.scaled(JPEGTables.luminanceQuantisation, quality: quality)
        chromaTable = JPEGTables.scaled(JPEGTables.chrominanceQuantisation, quality: quality)
        lumaReciprocals = Self.reciprocals(lumaTable)
        chromaReciprocals = Self.reciprocals(chromaTable)
    }

    /// The AAN forward DCT leaves coefficient (u, v) scaled by s(u)·s(v)·8, with
    /// s(0) = 1 and s(k) = √2·cos(kπ/16); the quantiser divides that back out.
    private static let aanScale: [Float] = [1.0, 1.387039845, 1.306562965, 1.175875602, 1.0, 0.785694958, 0.541196100, 0.275899379]

    private static func reciprocals(_ table: [Int]) -> [Float] {
        (0..<64).map { 1 / (Float(table[$0]) * aanScale[$0 / 8] * aanScale[$0 % 8] * 8) }
    }

    /// Encodes `image` into a complete JPEG file with the given metadata segments.
    public func encode(_ image: RGBImage, metadata: JPEGMetadata = JPEGMetadata()) throws(JPEGEncoderError) -> [UInt8] {
        guard image.width > 0, image.height > 0, image.width <= 65535, image.height <= 65535,
            image.pixels.count == image.width * image.height * 3
        else { throw .badImageSize(width: image.width, height: image.height) }

        var out: [UInt8] = [0xFF, 0xD8]
        out.reserveCapacity(image.width * image.height / 2 + 4096)
        if metadata.jfif {
            try Self.segment(0xE0, [0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00], into: &out)
        }
        if let exif = metadata.exif {
            try Self.segment(0xE1, Array("Exif".utf8) + [0, 0] + exif, into: &out)
        }
        if let xmp = metadata.xmp {
            try Self.segment(0xE1, Array("http://ns.adobe.com/xap/1.0/".utf8) + [0] + Array(xmp.utf8), into: &out)
        }
        for extra in metadata.extraSegments {
            try Self.segment(extra.marker, extra.payload, into: &out)
        }
        writeTables(width: image.width, height: image.height, into: &out)
        writeScan(image, into: &out)
        out += [0xFF, 0xD9]
        return out
    }

    /// Appends marker, length and payload; a payload over 65533 bytes cannot be a segment.
    private static func segment(_ marker: UInt8, _ payload: [UInt8], into out: inout [UInt8]) throws(JPEGEncoderError) {
        guard payload.count <= 65533 else { throw .segmentTooLarge(marker: marker, size: payload.count) }
        let length = payload.count + 2
        out += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)]
        out += payload
    }

    /// DQT, SOF0 and DHT.
    private func writeTables(width: Int, height: Int, into out: inout [UInt8]) {
        var dqt: [UInt8] = [0x00]
        dqt += JPEGTables.zigZag.map { UInt8(lumaTable[$0]) }
        dqt.append(0x01)
        dqt += JPEGTables.zigZag.map { UInt8(chromaTable[$0]) }
        try? Self.segment(0xDB, dqt, into: &out)

        let lumaSampling: UInt8 = subsampling == .yuv420 ? 0x22 : 0x11
        let sof: [UInt8] = [
            8, UInt8(height >> 8), UInt8(height & 0xFF), UInt8(width >> 8), UInt8(width & 0xFF), 3,
            1, lumaSampling, 0,
            2, 0x11, 1,
            3, 0x11, 1,
        ]
        try? Self.segment(0xC0, sof, into: &out)

        var dht: [UInt8] = []
        for (tableClass, spec) in [
            (0x00, JPEGTables.dcLuminance), (0x10, JPEGTables.acLuminance), (0x01, JPEGTables.dcChrominance),
            (0x11, JPEGTables.acChrominance),
        ] {
            dht.append(UInt8(tableClass))
            dht += spec.counts
            dht += spec.symbols
        }
        try? Self.segment(0xC4, dht, into: &out)

        try? Self.segment(0xDA, [3, 1, 0x00, 2, 0x11, 3, 0x11, 0, 63, 0], into: &out)
    }

    /// Colour conversion, DCT, quantisation and Huffman coding of every MCU.
    private func writeScan(_ image: RGBImage, into out: inout [UInt8]) {
        let mcuSize = subsampling == .yuv420 ? 16 : 8
        let paddedWidth = (image.width + mcuSize - 1) / mcuSize * mcuSize
        let paddedHeight = (image.height + mcuSize - 1) / mcuSize * mcuSize
        let planes = YCbCrPlanes(image, paddedWidth: paddedWidth, paddedHeight: paddedHeight, halveChroma: subsampling == .yuv420)

        var bits = BitWriter(out: out)
        out = []
        var previousDC: [Int32] = [0, 0, 0]
        var block = [Float](repeating: 0, count: 64)
        var coefficients = [Int32](repeating: 0, count: 64)
        let chromaStride = planes.chromaWidth
        for mcuY in stride(from: 0, to: paddedHeight, by: mcuSize) {
            for mcuX in stride(from: 0, to: paddedWidth, by: mcuSize) {
                let lumaBlocks = subsampling == .yuv420 ? [(0, 0), (8, 0), (0, 8), (8, 8)] : [(0, 0)]
                for (dx, dy) in lumaBlocks {
                    load(planes.y, stride: paddedWidth, x: mcuX + dx, y: mcuY + dy, into: &block)
                    transform(&block, reciprocals: lumaReciprocals, into: &coefficients)
                    encodeBlock(coefficients, previousDC: &previousDC[0], dc: dcLuma, ac: acLuma, bits: &bits)
                }
                let cx = subsampling == .yuv420 ? mcuX / 2 : mcuX
                let cy = subsampling == .yuv420 ? mcuY / 2 : mcuY
                load(planes.cb, stride: chromaStride, x: cx, y: cy, into: &block)
                transform(&block, reciprocals: chromaReciprocals, into: &coefficients)
                encodeBlock(coefficients, previousDC: &previousDC[1], dc: dcChroma, ac: acChroma, bits: &bits)
                load(planes.cr, stride: chromaStride, x: cx, y: cy, into: &block)
                transform(&block, reciprocals: chromaReciprocals, into: &coefficients)
                encodeBlock(coefficients, previousDC: &previousDC[2], dc: dcChroma, ac: acChroma, bits: &bits)
            }
        }
        bits.flush()
        out = bits.out
    }

    private func load(_ plane: [Float], stride: Int, x: Int, y: Int, into block: inout [Float]) {
        plane.withUnsafeBufferPointer { source in
            block.withUnsafeMutableBufferPointer { target in
                for row in 0..<8 {
                    let start = (y + row) * stride + x
                    for column in 0..<8 { target[row * 8 + column] = source[start + column] }
                }
            }
        }
    }

    /// Forward DCT of the block, then quantisation into natural-order integers.
    private func transform(_ block: inout [Float], reciprocals: [Float], into coefficients: inout [Int32]) {
        block.withUnsafeMutableBufferPointer { data in
            guard let base = data.baseAddress else { return }
            for row in 0..<8 { Self.fdct8(base + row * 8, step: 1) }
            for column in 0..<8 { Self.fdct8(base + column, step: 8) }
            reciprocals.withUnsafeBufferPointer { scale in
                coefficients.withUnsafeMutableBufferPointer { result in
                    for i in 0..<64 {
                        // Round half away from zero without a libm call.
                        let x = data[i] * scale[i]
                        result[i] = Int32(x + (x < 0 ? -0.5 : 0.5))
                    }
                }
            }
        }
    }

    /// One 8-point AAN (Arai–Agui–Nakajima) DCT over `p[0], p[step], ... p[7*step]`, in place.
    /// Outputs carry the scale factors that `aanScale` removes.
    private static func fdct8(_ p: UnsafeMutablePointer<Float>, step: Int) {
        let d0 = p[0], d1 = p[step], d2 = p[2 * step], d3 = p[3 * step]
        let d4 = p[4 * step], d5 = p[5 * step], d6 = p[6 * step], d7 = p[7 * step]
        let s07 = d0 + d7, t07 = d0 - d7
        let s16 = d1 + d6, t16 = d1 - d6
        let s25 = d2 + d5, t25 = d2 - d5
        let s34 = d3 + d4, t34 = d3 - d4

        // Even half: a 4-point DCT of the sums.
        let e0 = s07 + s34, e3 = s07 - s34
        let e1 = s16 + s25, e2 = s16 - s25
        p[0] = e0 + e1
        p[4 * step] = e0 - e1
        let rotated = (e2 + e3) * 0.707106781
        p[2 * step] = e3 + rotated
        p[6 * step] = e3 - rotated

        // Odd half: the differences through the rotation network.
        let o0 = t34 + t25
        let o1 = t25 + t16
        let o2 = t16 + t07
        let z5 = (o0 - o2) * 0.382683433
        let z2 = 0.541196100 * o0 + z5
        let z4 = 1.306562965 * o2 + z5
        let z3 = o1 * 0.707106781
        let z11 = t07 + z3
        let z13 = t07 - z3
        p[5 * step] = z13 + z2
        p[3 * step] = z13 - z2
        p[step] = z11 + z4
        p[7 * step] = z11 - z4
    }

    private func encodeBlock(_ coefficients: [Int32], previousDC: inout Int32, dc: HuffmanCodes, ac: HuffmanCodes, bits: inout BitWriter) {
        coefficients.withUnsafeBufferPointer { c in
            let value = min(max(c[0], -1023), 1023)
            let difference = value - previousDC
            previousDC = value
            let dcSize = Self.magnitudeSize(difference)
            bits.write(dc.code[dcSize], Int(dc.length[dcSize]))
            if dcSize > 0 { bits.write(Self.magnitudeBits(difference, dcSize), dcSize) }

            var run = 0
            JPEGTables.zigZagPointer { zigZag in
                for k in 1..<64 {
                    let v = min(max(c[zigZag[k]], -1023), 1023)
                    if v == 0 {
                        run += 1
                        continue
                    }
                    while run > 15 {
                        bits.write(ac.code[0xF0], Int(ac.length[0xF0]))
                        run -= 16
                    }
                    let size = Self.magnitudeSize(v)
                    let symbol = run << 4 | size
                    bits.write(ac.code[symbol], Int(ac.length[symbol]))
                    bits.write(Self.magnitudeBits(v, size), size)
                    run = 0
                }
            }
            if run > 0 { bits.write(ac.code[0x00], Int(ac.length[0x00])) }
        }
    }

    /// The JPEG "size" category: bits needed for |v|.
    private static func magnitudeSize(_ v: Int32) -> Int {
        32 - v.magnitude.leadingZeroBitCount
    }

    /// The extra bits after a size code: v itself, or v - 1 in ones' complement when negative.
    private static func magnitudeBits(_ v: Int32, _ size: Int) -> UInt32 {
        let raw = v < 0 ? v - 1 : v
        return UInt32(bitPattern: raw) & ((1 << UInt32(size)) - 1)
    }
}

extension JPEGTables {
    /// Runs `body` with the zig-zag table as a raw buffer (no bounds checks in the hot loop).
    static func zigZagPointer(_ body: (UnsafeBufferPointer<Int>) -> Void) {
        zigZag.withUnsafeBufferPointer(body)
    }
}

/// The metadata segments written after SOI, in this order.
public struct JPEGMetadata: Sendable, Hashable {
    /// A JFIF APP0 segment (what a file without EXIF usually starts with).
    public var jfif: Bool
    /// A TIFF block for an APP1 `Exif\0\0` segment (from `ExifBuilder` or `TIFFBuilder`).
    public var exif: [UInt8]?
    /// An XMP packet for an APP1 segment with the Adobe XMP namespace header.
    public var xmp: String?
    /// Any further segments (APP13, COM, ...) for fixtures.
    public var extraSegments: [JPEGSegment]

    public init(jfif: Bool = false, exif: [UInt8]? = nil, xmp: String? = nil, extraSegments: [JPEGSegment] = []) {
        self.jfif = jfif
        self.exif = exif
        self.xmp = xmp
        self.extraSegments = extraSegments
    }
}

/// One marker segment: the marker byte after 0xFF and its payload (without the length).
public struct JPEGSegment: Sendable, Hashable {
    public var marker: UInt8
    public var payload: [UInt8]

    public init(marker: UInt8, payload: [UInt8]) {
        self.marker = marker
        self.payload = payload
    }
}

/// Why a picture could not be encoded.
public enum JPEGEncoderError: Error, Sendable, Hashable {
    /// Width or height is zero, over 65535, or the pixel buffer has the wrong length.
    case badImageSize(width: Int, height: Int)
    /// A metadata segment's payload is over the 65533 bytes a segment can hold.
    case segmentTooLarge(marker: UInt8, size: Int)
}

/// Entropy-coded bits, most significant first, with 0xFF byte stuffing.
struct BitWriter {
    var out: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(out: [UInt8]) { self.out = out }

    mutating func write(_ code: UInt32, _ length: Int) {
        guard length > 0 else { return }
        buffer = (buffer << UInt64(length)) | UInt64(code & ((1 << UInt32(length)) - 1))
        count += length
        while count >= 8 {
            count -= 8
            let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(count))
            out.append(byte)
            if byte == 0xFF { out.append(0) }
        }
    }

    /// Pads the last byte with one-bits, as T.81 asks.
    mutating func flush() {
        if count > 0 { write((1 << UInt32(8 - count)) - 1, 8 - count) }
    }
}

/// Level-shifted Y, Cb, Cr planes padded to whole MCUs by repeating the last row and column.
struct YCbCrPlanes {
    var y: [Float]
    var cb: [Float]
    var cr: [Float]
    let chromaWidth: Int

    init(_ image: RGBImage, paddedWidth: Int, paddedHeight: Int, halveChroma: Bool) {
        let count = paddedWidth * paddedHeight
        var y = [Float](repeating: 0, count: count)
        var cb = [Float](repeating: 0, count: count)
        var cr = [Float](repeating: 0, count: count)
        image.pixels.withUnsafeBufferPointer { px in
            for row in 0..<paddedHeight {
                let sourceRow = min(row, image.height - 1)
                for column in 0..<paddedWidth {
                    let i = (sourceRow * image.width + min(column, image.width - 1)) * 3
                    let r = Float(px[i]), g = Float(px[i + 1]), b = Float(px[i + 2])
                    let o = row * paddedWidth + column
                    y[o] = 0.299 * r + 0.587 * g + 0.114 * b - 128
                    cb[o] = -0.168736 * r - 0.331264 * g + 0.5 * b
                    cr[o] = 0.5 * r - 0.418688 * g - 0.081312 * b
                }
            }
        }
        self.y = y
        guard halveChroma else {
            self.cb = cb
            self.cr = cr
            chromaWidth = paddedWidth
            return
        }
        let halfWidth = paddedWidth / 2
        let halfHeight = paddedHeight / 2
        var smallCb = [Float](repeating: 0, count: halfWidth * halfHeight)
        var smallCr = smallCb
        for row in 0..<halfHeight {
            for column in 0..<halfWidth {
                let a = 2 * row * paddedWidth + 2 * column
                let b = a + paddedWidth
                smallCb[row * halfWidth + column] = (cb[a] + cb[a + 1] + cb[b] + cb[b + 1]) * 0.25
                smallCr[row * halfWidth + column] = (cr[a] + cr[a + 1] + cr[b] + cr[b + 1]) * 0.25
            }
        }
        self.cb = smallCb
        self.cr = smallCr
        chromaWidth = halfWidth
    }
}
