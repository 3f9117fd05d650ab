/// Typed values of the entries a `TIFFWalker` found, read from the source they were found
/// in: the one way photofs reads a TIFF or EXIF value outside libexif (format sniffing,
/// MPF indexes, embedded previews, raw image sizes, EXIF repacking).
///
/// Every read stays inside the entry's value range, which the walker checked against the
/// block, and under a caller's cap, so a lying count costs no more than the cap.
public struct TIFFValues {
    public let source: any ByteSource
    public let order: TIFFByteOrder

    public init(_ source: any ByteSource, order: TIFFByteOrder) {
        self.source = source
        self.order = order
    }

    /// The value bytes of `entry` as stored (in the block's byte order); nil when its type
    /// is unknown, its value lies outside the block, or it is longer than `maxBytes`.
    public func bytes(_ entry: TIFFEntry?, maxBytes: Int = 1 << 16) -> [UInt8]? {
        guard let range = entry?.value, range.length <= Int64(maxBytes) else { return nil }
        return read(range.offset, Int(range.length))
    }

    /// The unsigned values of a BYTE, UNDEFINED, SHORT or LONG entry; nil for another type,
    /// more than `limit` values, or a value outside the block.
    public func integers(_ entry: TIFFEntry?, limit: Int = 1 << 16) -> [Int]? {
        guard let entry, let width = Self.integerWidth(entry.type), Int(entry.count) <= limit,
            let bytes = bytes(entry, maxBytes: limit * width)
        else { return nil }
        return stride(from: 0, to: bytes.count - width + 1, by: width).map { unsigned(bytes, at: $0, width: width) }
    }

    /// The first value of a BYTE, UNDEFINED, SHORT or LONG entry, however many it holds.
    public func integer(_ entry: TIFFEntry?) -> Int? {
        guard let entry, entry.count >= 1, let width = Self.integerWidth(entry.type), let range = entry.value,
            let bytes = read(range.offset, width)
        else { return nil }
        return unsigned(bytes, at: 0, width: width)
    }

    /// The text of an ASCII entry up to its first NUL; nil for another type or a value
    /// longer than `maxBytes`.
    public func text(_ entry: TIFFEntry?, maxBytes: Int = 256) -> String? {
        guard entry?.type == TIFFType.ascii.rawValue, let bytes = bytes(entry, maxBytes: maxBytes) else { return nil }
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// An unsigned integer of `width` (1, 2 or 4) bytes at `index` of `bytes`, in this block's order.
    public func unsigned(_ bytes: [UInt8], at index: Int, width: Int) -> Int {
        var value = 0
        for k in 0..<width {
            value = value << 8 | Int(bytes[index + (order == .bigEndian ? k : width - 1 - k)])
        }
        return value
    }

    private static func integerWidth(_ type: UInt16) -> Int? {
        switch type {
        case TIFFType.byte.rawValue, TIFFType.undefined.rawValue: 1
        case TIFFType.short.rawValue: 2
        case TIFFType.long.rawValue: 4
        default: nil
        }
    }

    /// Exactly `count` bytes at `offset`, or nil.
    private func read(_ offset: Int64, _ count: Int) -> [UInt8]? {
        guard let bytes = try? source.read(at: offset, count: count), bytes.count == count else { return nil }
        return bytes
    }
}

extension TIFFDirectory {
    /// The first entry with `tag`, if any.
    public func entry(_ tag: UInt16) -> TIFFEntry? { entries.first { $0.tag == tag } }
}

extension TIFFLayout {
    /// The first directory reached as `kind` (`.main(0)` is IFD0).
    public func directory(_ kind: TIFFDirectoryKind) -> TIFFDirectory? { directories.first { $0.kind == kind } }
}
