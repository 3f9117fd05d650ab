import MediaFormats
import PhotoCore

/// Copies the IFD0, Exif IFD and GPS IFD of a long TIFF-structured block into a new,
/// compact block that libexif can read.
///
/// libexif reads at most 64 KiB of EXIF data (the JPEG APP1 limit), so in a TIFF, DNG or
/// raw file whose IFDs sit after megabytes of image data it finds nothing. The repacker
/// moves bytes only: it reads each entry's 12 bytes and its value, and writes them to a
/// new block with fresh offsets; libexif still does all the decoding. Entries whose value
/// is large (strips, tiles, maker notes, ICC profiles, embedded XMP) are dropped: photofs
/// reads none of them. Every offset and count is checked against the block; a loop of IFD
/// pointers cannot form because only the two sub-IFD pointers of IFD0 are followed.
enum TIFFRepacker {
    /// The new block (starting at a TIFF header) and what could not be copied.
    struct Result {
        var bytes: [UInt8]
        var problems: [String]
    }

    /// Tags whose values are offsets into the original block; in the new block they would
    /// point at unrelated bytes, so they are not copied (IFD0's Exif and GPS pointers are
    /// rewritten instead). SubIFDs, thumbnail, strips, tiles, the Interoperability IFD.
    static let offsetTags: Set<UInt16> = [0x014A, 0x0201, 0x0202, 0x0111, 0x0144, 0xA005, 0x8769, 0x8825]

    /// The largest value copied for one entry.
    static let maxValueLength = 4096
    /// The most entries read from one IFD; real IFDs have tens.
    static let maxEntries = 1024

    private struct Entry {
        var tag: UInt16
        var type: UInt16
        var count: UInt32
        /// The value bytes (exactly `count × size of type`), or a sub-IFD for a pointer.
        var value: [UInt8]
        var subdirectory: Int?
    }

    private struct Directory {
        var entries: [Entry] = []
    }

    /// Repacks the block at `range` of `source`; an empty result when even the header
    /// cannot be read.
    static func repack(_ source: some ByteSource, block range: ByteRange) -> Result {
        var problems: [String] = []
        guard let header = read(source, range, at: 0, count: 8) else { return Result(bytes: [], problems: ["TIFF: header unreadable"]) }
        let bigEndian: Bool
        if header.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
            bigEndian = true
        } else if header.starts(with: [0x49, 0x49, 0x2A, 0x00]) {
            bigEndian = false
        } else {
            return Result(bytes: [], problems: ["TIFF: no TIFF header"])
        }
        let order = ByteOrder(bigEndian: bigEndian)
        var directories: [Directory] = []
        let ifd0Offset = Int64(order.u32(header, 4))
        guard var ifd0 = readDirectory(source, range, at: ifd0Offset, order: order, problems: &problems) else {
            problems.append("TIFF: IFD0 unreadable")
            return Result(bytes: [], problems: problems)
        }
        directories.append(Directory())
        for index in ifd0.entries.indices where [0x8769, 0x8825].contains(ifd0.entries[index].tag) {
            let entry = ifd0.entries[index]
            let name = entry.tag == 0x8769 ? "Exif IFD" : "GPS IFD"
            guard entry.value.count == 4 else {
                problems.append("TIFF: \(name) pointer has a wrong type")
                continue
            }
            let offset = Int64(order.u32(entry.value, 0))
            if var directory = readDirectory(source, range, at: offset, order: order, problems: &problems) {
                directory.entries.removeAll { offsetTags.contains($0.tag) }
                directories.append(directory)
                ifd0.entries[index].subdirectory = directories.count - 1
            } else {
                problems.append("TIFF: \(name) unreadable")
            }
        }
        // Pointer entries left without a directory, and other offsets, would point nowhere.
        ifd0.entries.removeAll { offsetTags.contains($0.tag) && $0.subdirectory == nil }
        directories[0] = ifd0
        return Result(bytes: write(directories, order: order, problems: &problems), problems: problems)
    }

    /// Reads one IFD's entries and their values; nil when its entry count is unreadable.
    private static func readDirectory(
        _ source: some ByteSource, _ range: ByteRange, at offset: Int64, order: ByteOrder, problems: inout [String]
    ) -> Directory? {
        guard let countBytes = read(source, range, at: offset, count: 2) else { return nil }
        let declared = Int(order.u16(countBytes, 0))
        let count = min(declared, maxEntries)
        guard count > 0, let table = read(source, range, at: offset + 2, count: count * 12) else { return nil }
        var directory = Directory()
        var dropped = 0
        for index in 0..<count {
            let base = index * 12
            let tag = order.u16(table, base)
            let type = order.u16(table, base + 2)
            let components = order.u32(table, base + 4)
            guard let unit = typeSize(type) else {
                dropped += 1
                continue
            }
            let (length, overflow) = UInt64(components).multipliedReportingOverflow(by: UInt64(unit))
            guard !overflow, length > 0 else {
                dropped += 1
                continue
            }
            let value: [UInt8]
            if length <= 4 {
                value = Array(table[(base + 8)..<(base + 8 + Int(length))])
            } else if length <= UInt64(maxValueLength),
                let bytes = read(source, range, at: Int64(order.u32(table, base + 8)), count: Int(length))
            {
                value = bytes
            } else {
                dropped += 1
                continue
            }
            directory.entries.append(Entry(tag: tag, type: type, count: components, value: value))
        }
        if dropped > 0 { problems.append("TIFF: \(dropped) large or unreadable entry(ies) not copied") }
        return directory
    }

    /// Lays the directories out one after another, each followed by its values.
    private static func write(_ directories: [Directory], order: ByteOrder, problems: inout [String]) -> [UInt8] {
        let limit = LibexifDocument.maxBlockLength
        var directories = directories
        // Drop values from the end until everything fits into what libexif reads.
        func size(_ directory: Directory) -> Int {
            2 + directory.entries.count * 12 + 4 + directory.entries.reduce(0) { $0 + ($1.value.count > 4 ? ($1.value.count + 1) & ~1 : 0) }
        }
        while 8 + directories.reduce(0, { $0 + size($1) }) > limit {
            guard let index = directories.indices.last(where: { directories[$0].entries.contains { $0.value.count > 4 } }),
                let victim = directories[index].entries.lastIndex(where: { $0.value.count > 4 })
            else { break }
            directories[index].entries.remove(at: victim)
            problems.append("TIFF: an entry did not fit into 64 KiB")
        }
        var starts: [Int] = []
        var position = 8
        for directory in directories {
            starts.append(position)
            position += size(directory)
        }
        var output = [UInt8](repeating: 0, count: position)
        output.replaceSubrange(0..<4, with: order.bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00])
        order.put32(&output, 4, UInt32(starts[0]))
        for (index, directory) in directories.enumerated() {
            var cursor = starts[index]
            order.put16(&output, cursor, UInt16(directory.entries.count))
            cursor += 2
            var valueArea = cursor + directory.entries.count * 12 + 4
            for entry in directory.entries {
                order.put16(&output, cursor, entry.tag)
                if let sub = entry.subdirectory {
                    order.put16(&output, cursor + 2, 4)
                    order.put32(&output, cursor + 4, 1)
                    order.put32(&output, cursor + 8, UInt32(starts[sub]))
                } else {
                    order.put16(&output, cursor + 2, entry.type)
                    order.put32(&output, cursor + 4, entry.count)
                    if entry.value.count <= 4 {
                        output.replaceSubrange((cursor + 8)..<(cursor + 8 + entry.value.count), with: entry.value)
                    } else {
                        order.put32(&output, cursor + 8, UInt32(valueArea))
                        output.replaceSubrange(valueArea..<(valueArea + entry.value.count), with: entry.value)
                        valueArea += (entry.value.count + 1) & ~1
                    }
                }
                cursor += 12
            }
            // The next-IFD offset stays 0: IFD1 (the thumbnail) is not copied.
        }
        return output
    }

    /// Exactly `count` bytes at `offset` inside the block, or nil.
    private static func read(_ source: some ByteSource, _ range: ByteRange, at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, offset <= range.length, Int64(count) <= range.length - offset else { return nil }
        guard let bytes = try? source.read(at: range.offset + offset, count: count), bytes.count == count else { return nil }
        return bytes
    }

    /// Bytes per value of a TIFF field type; nil for unknown types.
    private static func typeSize(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

/// Reads and writes 16- and 32-bit integers in one TIFF byte order.
private struct ByteOrder {
    var bigEndian: Bool

    func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        let a = UInt16(bytes[offset])
        let b = UInt16(bytes[offset + 1])
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        let high = UInt32(u16(bytes, offset))
        let low = UInt32(u16(bytes, offset + 2))
        return bigEndian ? high << 16 | low : low << 16 | high
    }

    func put16(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt16) {
        let high = UInt8(truncatingIfNeeded: value >> 8)
        let low = UInt8(truncatingIfNeeded: value)
        bytes[offset] = bigEndian ? high : low
        bytes[offset + 1] = bigEndian ? low : high
    }

    func put32(_ bytes: inout [UInt8], _ offset: Int, _ value: UInt32) {
        let high = UInt16(truncatingIfNeeded: value >> 16)
        let low = UInt16(truncatingIfNeeded: value)
        put16(&bytes, offset, bigEndian ? high : low)
        put16(&bytes, offset + 2, bigEndian ? low : high)
    }
}
