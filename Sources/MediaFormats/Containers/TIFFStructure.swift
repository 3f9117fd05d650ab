/// Just enough of TIFF to sniff formats and to read MPF index IFDs: the header and the
/// entries of one IFD. The full IFD walker (GPS offsets) belongs to redaction.
struct TIFFStructure {
    /// One 12-byte IFD entry as stored; `valueField` is the raw 4-byte value/offset word.
    struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        var valueField: UInt32
        /// Position of the 4-byte value/offset word, relative to the TIFF header.
        var valueFieldPosition: Int64
    }

    /// The most IFD entries looked at; real IFDs have tens.
    static let maxEntries = 1000

    let reader: SourceReader
    /// Absolute offset of the `II*\0` / `MM\0*` header.
    let base: Int64
    /// Bytes available from `base` (the enclosing segment's end).
    let limit: Int64
    let bigEndian: Bool
    let firstIFD: UInt32

    /// Reads the header at `base`; nil unless it is a classic TIFF header.
    init?(reader: SourceReader, base: Int64, limit: Int64) {
        guard let header = reader.bytes(at: base, count: 8), limit >= 8 else { return nil }
        let view = ByteView(header)
        if view.matches([0x49, 0x49, 0x2A, 0x00], at: 0) {
            bigEndian = false
        } else if view.matches([0x4D, 0x4D, 0x00, 0x2A], at: 0) {
            bigEndian = true
        } else {
            return nil
        }
        guard let first = view.u32(4, bigEndian: bigEndian) else { return nil }
        self.reader = reader
        self.base = base
        self.limit = limit
        self.firstIFD = first
    }

    /// Whether `bytes` start with a classic TIFF header.
    static func isHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// The entries of the IFD at `offset` (relative to the header), or nil if it is out of bounds.
    func entries(at offset: UInt32) -> [Entry]? {
        let ifd = Int64(offset)
        guard ifd >= 8, ifd <= limit - 2, let countBytes = reader.bytes(at: base + ifd, count: 2),
            let count = ByteView(countBytes).u16(0, bigEndian: bigEndian)
        else { return nil }
        let wanted = min(Int(count), Self.maxEntries)
        let available = Int((limit - ifd - 2) / 12)
        let n = min(wanted, max(0, available))
        guard let raw = reader.bytes(at: base + ifd + 2, count: n * 12) else { return nil }
        let view = ByteView(raw)
        var result: [Entry] = []
        result.reserveCapacity(n)
        for i in 0..<n {
            let p = i * 12
            guard let tag = view.u16(p, bigEndian: bigEndian), let type = view.u16(p + 2, bigEndian: bigEndian),
                let count = view.u32(p + 4, bigEndian: bigEndian), let value = view.u32(p + 8, bigEndian: bigEndian)
            else { break }
            result.append(Entry(tag: tag, type: type, count: count, valueField: value, valueFieldPosition: ifd + 2 + Int64(p) + 8))
        }
        return result
    }

    /// The value bytes of an entry (inline when they fit in 4 bytes), capped at `maxBytes`.
    func valueBytes(_ entry: Entry, maxBytes: Int = 4096) -> [UInt8]? {
        let unit: Int64
        switch entry.type {
        case 1, 2, 6, 7: unit = 1
        case 3, 8: unit = 2
        case 4, 9, 11, 13: unit = 4
        case 5, 10, 12, 16, 17, 18: unit = 8
        default: return nil
        }
        let total = unit * Int64(entry.count)
        guard total <= Int64(maxBytes) else { return nil }
        let position = total <= 4 ? entry.valueFieldPosition : Int64(entry.valueField)
        guard position >= 0, position + total <= limit else { return nil }
        return reader.bytes(at: base + position, count: Int(total))
    }

    /// An ASCII entry's text without its NUL terminator.
    func text(_ entry: Entry) -> String? {
        guard entry.type == 2, let bytes = valueBytes(entry, maxBytes: 256) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}
