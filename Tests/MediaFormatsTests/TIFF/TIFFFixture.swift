@testable import MediaFormats

/// Builds small TIFF blocks byte by byte, in either byte order, for exact-offset tests.
///
/// The standard fixture (`TIFFFixture.standard`), offsets relative to the TIFF header:
///
///     0    header, IFD0 at 8
///     8    IFD0: ExifIFD → 38, GPSInfo → 60; next 0                       (30 bytes)
///     38   Exif IFD: DateTimeOriginal ASCII[20] → 140                      (18 bytes)
///     60   GPS IFD: VersionID, LatitudeRef "N", Latitude → 160,
///          LongitudeRef "E", Longitude → 184, Altitude → 208             (78 bytes)
///     140  "2024:06:15 12:00:00\0"
///     160  latitude 48/1 51/1 2400/100      (48.856666…°)
///     184  longitude 2/1 21/1 900/100       (2.3525°)
///     208  altitude 35/1
///     216  end
struct TIFFFixture {
    var order: TIFFByteOrder
    var bytes: [UInt8]

    init(order: TIFFByteOrder, length: Int) {
        self.order = order
        bytes = [UInt8](repeating: 0, count: length)
        bytes.replaceSubrange(0..<2, with: order == .littleEndian ? [0x49, 0x49] : [0x4D, 0x4D])
        u16(2, 42)
        u32(4, 8)
    }

    mutating func u16(_ at: Int, _ value: UInt16) { bytes.replaceSubrange(at..<at + 2, with: order.bytes(of: value)) }
    mutating func u32(_ at: Int, _ value: UInt32) { bytes.replaceSubrange(at..<at + 4, with: order.bytes(of: value)) }

    /// Writes an IFD at `at`: the count, the entries (tag, type, count, value field) and the next offset.
    mutating func ifd(_ at: Int, _ entries: [(UInt16, UInt16, UInt32, UInt32)], next: UInt32 = 0) {
        u16(at, UInt16(entries.count))
        for (index, entry) in entries.enumerated() {
            let base = at + 2 + 12 * index
            u16(base, entry.0)
            u16(base + 2, entry.1)
            u32(base + 4, entry.2)
            u32(base + 8, entry.3)
        }
        u32(at + 2 + 12 * entries.count, next)
    }

    /// Writes `bytes` verbatim into an inline value field (left-aligned, as TIFF stores it).
    mutating func inline(_ entryAt: Int, _ raw: [UInt8]) {
        bytes.replaceSubrange(entryAt + 8..<entryAt + 8 + raw.count, with: raw)
    }

    mutating func rationals(_ at: Int, _ values: [(UInt32, UInt32)]) {
        for (index, value) in values.enumerated() {
            u32(at + 8 * index, value.0)
            u32(at + 8 * index + 4, value.1)
        }
    }

    /// The standard fixture described above.
    static func standard(_ order: TIFFByteOrder) -> TIFFFixture {
        var f = TIFFFixture(order: order, length: 216)
        f.ifd(8, [(0x8769, 4, 1, 38), (0x8825, 4, 1, 60)])
        f.ifd(38, [(0x9003, 2, 20, 140)])
        f.ifd(60, [(0, 1, 4, 0), (1, 2, 2, 0), (2, 5, 3, 160), (3, 2, 2, 0), (4, 5, 3, 184), (6, 5, 1, 208)])
        f.inline(62, [2, 3, 0, 0])
        f.inline(74, [0x4E, 0])
        f.inline(98, [0x45, 0])
        f.bytes.replaceSubrange(140..<160, with: Array("2024:06:15 12:00:00".utf8) + [0])
        f.rationals(160, [(48, 1), (51, 1), (2400, 100)])
        f.rationals(184, [(2, 1), (21, 1), (900, 100)])
        f.rationals(208, [(35, 1)])
        return f
    }

    /// The fixture placed after `prefix` filler bytes (so absolute ≠ relative offsets).
    func embedded(after prefix: Int) -> [UInt8] {
        [UInt8](repeating: 0xAB, count: prefix) + bytes
    }
}
