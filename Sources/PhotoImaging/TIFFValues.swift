import MediaFormats

/// Integer values of the entries a `TIFFWalker` found, read from bytes already in memory.
struct TIFFValues {
    let bytes: [UInt8]
    let order: TIFFByteOrder

    /// The entry with `tag` in `directory`, if any.
    static func entry(_ tag: UInt16, in directory: TIFFDirectory) -> TIFFEntry? {
        directory.entries.first { $0.tag == tag }
    }

    /// The BYTE, SHORT or LONG values of `entry` (at most `limit`), or nil when it has
    /// another type or its value lies outside the bytes.
    func integers(_ entry: TIFFEntry?, limit: Int = 1 << 16) -> [Int]? {
        guard let entry, let range = entry.value else { return nil }
        let width: Int
        switch entry.type {
        case 1, 7: width = 1
        case 3: width = 2
        case 4: width = 4
        default: return nil
        }
        let count = Int(entry.count)
        guard count <= limit, range.offset >= 0, Int64(count * width) <= range.length, range.end <= Int64(bytes.count) else { return nil }
        var values: [Int] = []
        values.reserveCapacity(count)
        let base = Int(range.offset)
        for i in 0..<count {
            values.append(read(at: base + i * width, width: width))
        }
        return values
    }

    /// The first value of `entry`.
    func integer(_ entry: TIFFEntry?) -> Int? { integers(entry, limit: 1 << 16)?.first }

    /// An unsigned integer of `width` (1, 2, 4) bytes at `index`, in this block's order.
    func read(at index: Int, width: Int) -> Int {
        var value = 0
        for k in 0..<width {
            let byte = Int(bytes[index + (order == .bigEndian ? k : width - 1 - k)])
            value = value << 8 | byte
        }
        return value
    }
}
