/// Builds small TIFF-structured EXIF blocks in either byte order, for exact-byte tests.
struct TIFFBlockBuilder {
    /// One IFD entry: tag, field type and value bytes (already in the block's order).
    struct Field {
        var tag: UInt16
        var type: UInt16
        var value: [UInt8]

        /// The entry's count: how many values of its type the bytes hold.
        var count: UInt32 {
            let unit = [3: 2, 4: 4, 5: 8][type] ?? 1  // SHORT, LONG, RATIONAL; the others are bytes
            return UInt32(value.count / unit)
        }
    }

    var bigEndian: Bool
    var ifd0: [Field] = []
    var ifd1: [Field] = []
    var exif: [Field] = []
    var gps: [Field] = []
    /// Bytes of padding between the header and IFD0 (to push a block past 64 KiB).
    var paddingBeforeIFD0 = 0

    init(bigEndian: Bool) { self.bigEndian = bigEndian }

    // MARK: Values

    func u16(_ value: UInt16) -> [UInt8] {
        let high = UInt8(value >> 8)
        let low = UInt8(value & 0xFF)
        return bigEndian ? [high, low] : [low, high]
    }

    func u32(_ value: UInt32) -> [UInt8] {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        return bigEndian ? bytes : bytes.reversed()
    }

    func ascii(_ tag: UInt16, _ text: String) -> Field {
        let bytes = Array(text.utf8) + [0]
        return Field(tag: tag, type: 2, value: bytes)
    }

    func rawASCII(_ tag: UInt16, _ bytes: [UInt8]) -> Field {
        Field(tag: tag, type: 2, value: bytes)
    }

    func short(_ tag: UInt16, _ value: UInt16) -> Field {
        Field(tag: tag, type: 3, value: u16(value))
    }

    func long(_ tag: UInt16, _ value: UInt32) -> Field {
        Field(tag: tag, type: 4, value: u32(value))
    }

    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Field {
        Field(tag: tag, type: 5, value: values.flatMap { u32($0.0) + u32($0.1) })
    }

    func undefined(_ tag: UInt16, _ bytes: [UInt8]) -> Field {
        Field(tag: tag, type: 7, value: bytes)
    }

    func byte(_ tag: UInt16, _ value: UInt8) -> Field {
        Field(tag: tag, type: 1, value: [value])
    }

    // MARK: Layout

    /// The block: header, padding, IFD0 (with pointers to the Exif and GPS IFDs when they
    /// have entries, and to IFD1), then the other IFDs, each followed by its values.
    func build() -> [UInt8] {
        var directories: [[Field]] = [ifd0]
        var pointerFields: [(tag: UInt16, index: Int)] = []
        if !exif.isEmpty {
            directories.append(exif)
            pointerFields.append((0x8769, directories.count - 1))
        }
        if !gps.isEmpty {
            directories.append(gps)
            pointerFields.append((0x8825, directories.count - 1))
        }
        var ifd1Index: Int?
        if !ifd1.isEmpty {
            directories.append(ifd1)
            ifd1Index = directories.count - 1
        }
        // IFD0 gets placeholder pointer entries, patched once offsets are known.
        for pointer in pointerFields { directories[0].append(long(pointer.tag, 0)) }
        directories[0].sort { $0.tag < $1.tag }
        func size(_ fields: [Field]) -> Int {
            2 + fields.count * 12 + 4 + fields.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
        }
        var starts: [Int] = []
        var position = 8 + paddingBeforeIFD0
        for fields in directories {
            starts.append(position)
            position += size(fields)
        }
        for pointer in pointerFields {
            if let index = directories[0].firstIndex(where: { $0.tag == pointer.tag }) {
                directories[0][index].value = u32(UInt32(starts[pointer.index]))
            }
        }
        var out = (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]) + u32(UInt32(8 + paddingBeforeIFD0))
        out += [UInt8](repeating: 0xAB, count: paddingBeforeIFD0)
        for (index, fields) in directories.enumerated() {
            var table = u16(UInt16(fields.count))
            var values: [UInt8] = []
            let valuesStart = starts[index] + 2 + fields.count * 12 + 4
            for field in fields {
                table += u16(field.tag) + u16(field.type) + u32(field.count)
                if field.value.count <= 4 {
                    table += field.value + [UInt8](repeating: 0, count: 4 - field.value.count)
                } else {
                    table += u32(UInt32(valuesStart + values.count))
                    values += field.value
                    if values.count % 2 == 1 { values.append(0) }
                }
            }
            let next = index == 0 ? ifd1Index.map { UInt32(starts[$0]) } ?? 0 : 0
            table += u32(next)
            out += table + values
        }
        return out
    }
}

extension TIFFBlockBuilder {
    /// A block with every field photofs reads, south-west of Greenwich and below sea level.
    static func complete(bigEndian: Bool) -> TIFFBlockBuilder {
        var b = TIFFBlockBuilder(bigEndian: bigEndian)
        b.ifd0 = [
            b.ascii(0x010F, "Canon  "),
            b.rawASCII(0x0110, Array("EOS 40D".utf8) + [0, 0, 0x20, 0]),
            b.short(0x0112, 6),
            b.ascii(0x0131, "Firmware 1.0.3"),
            b.ascii(0x0132, "2020:01:02 03:04:05"),
            b.long(0x0100, 640),
            b.long(0x0101, 480),
        ]
        b.exif = [
            b.ascii(0x9003, "2019:09:09 14:49:29"),
            b.ascii(0x9004, "2019:09:09 14:49:30"),
            b.ascii(0x9011, "+09:30"),
            b.undefined(0x9286, Array("ASCII".utf8) + [0, 0, 0] + Array("Screenshot_2019".utf8)),
            b.short(0xA002, 3888),
            b.long(0xA003, 2592),
            b.ascii(0xA434, "EF-S17-85mm f/4-5.6 IS USM"),
        ]
        b.gps = [
            b.ascii(0x0001, "S"),
            b.rationals(0x0002, [(33, 1), (51, 1), (5499, 100)]),
            b.ascii(0x0003, "W"),
            b.rationals(0x0004, [(70, 1), (3030, 100), (0, 1)]),
            b.byte(0x0005, 1),
            b.rationals(0x0006, [(125, 10)]),
        ]
        return b
    }
}
