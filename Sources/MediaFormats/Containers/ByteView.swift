/// Bounds-checked integer reads over bytes already fetched from a file.
///
/// Every accessor returns nil instead of trapping when the bytes are not there, because
/// offsets and counts come from hostile files.
struct ByteView {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var count: Int { bytes.count }

    func u8(_ index: Int) -> UInt8? {
        guard index >= 0, index < bytes.count else { return nil }
        return bytes[index]
    }

    func u16(_ index: Int, bigEndian: Bool = true) -> UInt16? {
        guard has(index, 2) else { return nil }
        let (hi, lo) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
        return UInt16(hi) << 8 | UInt16(lo)
    }

    func u24le(_ index: Int) -> UInt32? {
        guard has(index, 3) else { return nil }
        return UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16
    }

    func u32(_ index: Int, bigEndian: Bool = true) -> UInt32? {
        guard has(index, 4) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(bytes[index + (bigEndian ? i : 3 - i)]) }
        return value
    }

    func u64(_ index: Int, bigEndian: Bool = true) -> UInt64? {
        guard has(index, 8) else { return nil }
        var value: UInt64 = 0
        for i in 0..<8 { value = value << 8 | UInt64(bytes[index + (bigEndian ? i : 7 - i)]) }
        return value
    }

    /// A big-endian unsigned integer of 0, 1, 2, 4 or 8 bytes (ISO-BMFF variable fields).
    func uint(_ index: Int, size: Int) -> UInt64? {
        switch size {
        case 0: 0
        case 1: u8(index).map(UInt64.init)
        case 2: u16(index).map(UInt64.init)
        case 4: u32(index).map(UInt64.init)
        case 8: u64(index)
        default: nil
        }
    }

    /// Whether `length` bytes starting at `index` are all there.
    func has(_ index: Int, _ length: Int) -> Bool {
        index >= 0 && length >= 0 && index <= bytes.count && length <= bytes.count - index
    }

    /// `length` bytes starting at `index` (indices of the underlying array), or nil when they are not all there.
    func slice(_ index: Int, _ length: Int) -> ArraySlice<UInt8>? {
        guard has(index, length) else { return nil }
        return bytes[index..<(index + length)]
    }

    /// Whether the bytes at `index` equal `expected`.
    func matches(_ expected: [UInt8], at index: Int) -> Bool {
        guard let s = slice(index, expected.count) else { return false }
        return s.elementsEqual(expected)
    }

    /// Whether the bytes at `index` spell the ASCII `text`.
    func matches(_ text: String, at index: Int) -> Bool { matches(Array(text.utf8), at: index) }

    /// The bytes from `index` up to (not including) the next NUL, and the index after the NUL;
    /// nil when no NUL follows.
    func cString(_ index: Int) -> (bytes: ArraySlice<UInt8>, next: Int)? {
        guard index >= 0, index <= bytes.count else { return nil }
        guard let nul = bytes[index...].firstIndex(of: 0) else { return nil }
        return (bytes[index..<nul], nul + 1)
    }
}

extension ArraySlice<UInt8> {
    /// The bytes as text, replacing invalid UTF-8; used only for names and types, never logged coordinates.
    var text: String { String(decoding: self, as: UTF8.self) }
}

/// Four bytes as a box/chunk type, e.g. `ftyp`, read as Latin-1 so that QuickTime's `©xyz`
/// (0xA9) keeps its copyright sign; other non-printable bytes become `?`.
func fourCC(_ value: UInt32) -> String {
    var text = ""
    for shift in [24, 16, 8, 0] {
        let byte = UInt8(truncatingIfNeeded: value >> UInt32(shift))
        text.unicodeScalars.append((byte >= 0x20 && byte < 0x7F) || byte == 0xA9 ? Unicode.Scalar(byte) : "?")
    }
    return text
}

/// The 32-bit value of a four-character code, e.g. `fourCCValue("moov")`; characters are taken as
/// Latin-1, so `fourCCValue("\u{A9}xyz")` is `A9 78 79 7A` as QuickTime writes it.
func fourCCValue(_ text: String) -> UInt32 {
    var value: UInt32 = 0
    for scalar in text.unicodeScalars.prefix(4) { value = value << 8 | (scalar.value & 0xFF) }
    return value
}
