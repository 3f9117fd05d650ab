import MediaFormats

/// One EXIF entry as the file stores it: its type, count and value bytes (in the block's
/// byte order), copied out of libexif. Decoding checks every length, so a lying count or a
/// short payload yields nil, never a trap.
struct EXIFEntry: Hashable, Sendable {
    var tag: UInt16
    /// The TIFF field type (`TIFFType`: 1 BYTE, 2 ASCII, 3 SHORT, 4 LONG, 5 RATIONAL, 7 UNDEFINED, ...).
    var format: UInt16
    var components: Int
    var bytes: [UInt8]
    var bigEndian: Bool

    /// The text of an ASCII (or UNDEFINED/BYTE) value: cut at the first NUL, stripped of
    /// spaces and control characters at both ends; nil when nothing is left. Bytes that are
    /// not UTF-8 are read as Latin-1, as cameras of the 2000s wrote them.
    var text: String? {
        var payload = bytes.prefix(while: { $0 != 0 })
        while let last = payload.last, last <= 0x20 || last == 0x7F { payload.removeLast() }
        while let first = payload.first, first <= 0x20 || first == 0x7F { payload.removeFirst() }
        guard !payload.isEmpty else { return nil }
        // Printable ASCII (nearly every camera's text) needs neither decoding nor cleaning.
        if payload.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return String(decoding: payload, as: UTF8.self) }
        let decoded: String
        if let utf8 = String(validating: payload, as: UTF8.self) {
            decoded = utf8
        } else {
            decoded = String(String.UnicodeScalarView(payload.map { Unicode.Scalar($0) }))
        }
        // Control characters inside a name would garble a table or a directory name.
        let cleaned = String(String.UnicodeScalarView(decoded.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }))
        return cleaned.isEmpty ? nil : cleaned
    }

    /// The first value as an unsigned integer, for BYTE, SHORT and LONG entries.
    var unsigned: UInt32? { unsignedValue(at: 0) }

    /// The `index`th value as an unsigned integer (BYTE, SHORT, LONG); nil when out of range.
    func unsignedValue(at index: Int) -> UInt32? {
        guard index >= 0, index < components else { return nil }
        switch format {
        case TIFFType.byte.rawValue, TIFFType.undefined.rawValue:
            return index < bytes.count ? UInt32(bytes[index]) : nil
        case TIFFType.short.rawValue:
            return u16(at: index &* 2).map(UInt32.init)
        case TIFFType.long.rawValue:
            return u32(at: index &* 4)
        default:
            return nil
        }
    }

    /// The `index`th value of a RATIONAL or SRATIONAL entry as a Double; nil when the
    /// denominator is 0 or the entry is too short.
    func rational(at index: Int) -> Double? {
        guard index >= 0, index < components, format == TIFFType.rational.rawValue || format == TIFFType.signedRational.rawValue,
            let numerator = u32(at: index &* 8), let denominator = u32(at: index &* 8 &+ 4)
        else { return nil }
        if format == TIFFType.signedRational.rawValue {
            let n = Int32(bitPattern: numerator)
            let d = Int32(bitPattern: denominator)
            guard d != 0 else { return nil }
            return Double(n) / Double(d)
        }
        guard denominator != 0 else { return nil }
        return Double(numerator) / Double(denominator)
    }

    private func u16(at offset: Int) -> UInt16? {
        guard offset >= 0, offset <= bytes.count &- 2 else { return nil }
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset &+ 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private func u32(at offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count &- 4 else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 {
            let byte = UInt32(bytes[offset &+ (bigEndian ? i : 3 &- i)])
            value = value << 8 | byte
        }
        return value
    }
}
