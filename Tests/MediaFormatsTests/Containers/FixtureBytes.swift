@testable import MediaFormats

/// Builders for tiny hand-made container fixtures with exactly known offsets.
enum Fixture {
    static func be16(_ v: Int) -> [UInt8] { [UInt8(truncatingIfNeeded: v >> 8), UInt8(truncatingIfNeeded: v)] }
    static func be32(_ v: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func be64(_ v: Int) -> [UInt8] { [56, 48, 40, 32, 24, 16, 8, 0].map { UInt8(truncatingIfNeeded: v >> $0) } }
    static func le16(_ v: Int) -> [UInt8] { be16(v).reversed() }
    static func le24(_ v: Int) -> [UInt8] { Array(be32(v).reversed().prefix(3)) }
    static func le32(_ v: Int) -> [UInt8] { be32(v).reversed() }
    /// Text as single bytes (Latin-1), so that QuickTime's `©xyz` is four bytes.
    static func ascii(_ s: String) -> [UInt8] { s.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) } }

    /// A minimal TIFF block: header + IFD0 with one Make entry ("Test"), next IFD 0.
    /// With `dng`, IFD0 also holds DNGVersion; with `subIFDs`, a SubIFDs tag; `make` overrides Make.
    static func tiff(bigEndian: Bool = false, make: String = "Test", dng: Bool = false, subIFDs: Bool = false) -> [UInt8] {
        let u16 = bigEndian ? be16 : le16
        let u32 = bigEndian ? be32 : le32
        var entries: [[UInt8]] = []
        var makeBytes = ascii(make) + [0]
        let count = 1 + (dng ? 1 : 0) + (subIFDs ? 1 : 0)
        let valueArea = 8 + 2 + count * 12 + 4
        if makeBytes.count <= 4 {
            makeBytes += [UInt8](repeating: 0, count: 4 - makeBytes.count)
            entries.append(u16(0x010F) + u16(2) + u32(make.utf8.count + 1) + makeBytes)
            makeBytes = []
        } else {
            entries.append(u16(0x010F) + u16(2) + u32(makeBytes.count) + u32(valueArea))
        }
        if subIFDs { entries.append(u16(0x014A) + u16(4) + u32(1) + u32(8)) }
        if dng { entries.append(u16(0xC612) + u16(1) + u32(4) + [1, 4, 0, 0]) }
        let header: [UInt8] = bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]
        return header + u32(8) + u16(count) + entries.flatMap { $0 } + u32(0) + makeBytes
    }

    static func jpegSegment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    static func sof(width: Int, height: Int) -> [UInt8] {
        jpegSegment(0xC0, [8] + be16(height) + be16(width) + [1, 1, 0x11, 0])
    }

    /// SOS header followed by a few entropy-coded bytes (with a stuffed 0xFF00) and EOI.
    static let sosAndData: [UInt8] = jpegSegment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + [0x12, 0xFF, 0x00, 0x34, 0xFF, 0xD9]

    static func pngChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        be32(data.count) + ascii(type) + data + [0, 0, 0, 0]  // The walker does not check CRCs.
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func riffChunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        ascii(type) + le32(data.count) + data + (data.count % 2 == 1 ? [0] : [])
    }

    static func webp(_ chunks: [[UInt8]]) -> [UInt8] {
        let body = ascii("WEBP") + chunks.flatMap { $0 }
        return ascii("RIFF") + le32(body.count) + body
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(payload.count + 8) + ascii(type) + payload }

    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + Array(be32(flags).suffix(3)) + payload)
    }

    /// Where `needle` first occurs in `haystack` (test bookkeeping for expected offsets).
    static func offset(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// A `ByteRange` shorthand for expectations.
func range(_ offset: Int, _ length: Int) -> ByteRange { ByteRange(offset: Int64(offset), length: Int64(length)) }
