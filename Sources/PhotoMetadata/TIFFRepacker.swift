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
/// reads none of them. The directories and values come from `TIFFWalker` and
/// `TIFFValues`, which check every offset and count against the block; of the directories
/// walked, only the two IFD0 points to (Exif, GPS) are copied.
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
    /// cannot be read. The directories and values come from `TIFFWalker`, which bounds
    /// every offset and count by the block.
    static func repack(_ source: some ByteSource, block range: ByteRange) -> Result {
        var problems: [String] = []
        let tiff = TIFFWalker().walk(source, block: range)
        guard let order = tiff.byteOrder else {
            let unreadable = tiff.problems.contains { if case .readFailed = $0 { true } else { false } } || range.length < 8
            return Result(bytes: [], problems: [unreadable ? "TIFF: header unreadable" : "TIFF: no TIFF header"])
        }
        let values = TIFFValues(source, order: order)
        var directories: [Directory] = []
        guard let main = tiff.directory(.main(0)), var ifd0 = copy(main, values: values, problems: &problems) else {
            problems.append("TIFF: IFD0 unreadable")
            return Result(bytes: [], problems: problems)
        }
        directories.append(Directory())
        for index in ifd0.entries.indices where [EXIFTag.exifIFD, EXIFTag.gpsIFD].contains(ifd0.entries[index].tag) {
            let entry = ifd0.entries[index]
            let isEXIF = entry.tag == EXIFTag.exifIFD
            let name = isEXIF ? "Exif IFD" : "GPS IFD"
            guard entry.value.count == 4 else {
                problems.append("TIFF: \(name) pointer has a wrong type")
                continue
            }
            let offset = range.offset + Int64(values.unsigned(entry.value, at: 0, width: 4))
            if let walked = tiff.directories.first(where: { $0.kind == (isEXIF ? .exif : .gps) && $0.offset == offset }),
                var directory = copy(walked, values: values, problems: &problems)
            {
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

    /// The entries of one walked directory with their values; nil when it has none.
    private static func copy(_ walked: TIFFDirectory, values: TIFFValues, problems: inout [String]) -> Directory? {
        guard !walked.entries.isEmpty else { return nil }
        var directory = Directory()
        var dropped = 0
        for entry in walked.entries.prefix(maxEntries) {
            // The types libexif decodes; a value of another type, of no length or too long is not copied.
            guard (1...13).contains(entry.type), entry.count > 0, let value = values.bytes(entry, maxBytes: maxValueLength) else {
                dropped += 1
                continue
            }
            directory.entries.append(Entry(tag: entry.tag, type: entry.type, count: entry.count, value: value))
        }
        if dropped > 0 { problems.append("TIFF: \(dropped) large or unreadable entry(ies) not copied") }
        return directory
    }

    /// Lays the directories out one after another, each followed by its values.
    private static func write(_ directories: [Directory], order: TIFFByteOrder, problems: inout [String]) -> [UInt8] {
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
        func put16(_ index: Int, _ value: UInt16) { output.replaceSubrange(index..<(index + 2), with: order.bytes(of: value)) }
        func put32(_ index: Int, _ value: UInt32) { output.replaceSubrange(index..<(index + 4), with: order.bytes(of: value)) }
        output.replaceSubrange(0..<4, with: order == .bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00])
        put32(4, UInt32(starts[0]))
        for (index, directory) in directories.enumerated() {
            var cursor = starts[index]
            put16(cursor, UInt16(directory.entries.count))
            cursor += 2
            var valueArea = cursor + directory.entries.count * 12 + 4
            for entry in directory.entries {
                put16(cursor, entry.tag)
                if let sub = entry.subdirectory {
                    put16(cursor + 2, 4)
                    put32(cursor + 4, 1)
                    put32(cursor + 8, UInt32(starts[sub]))
                } else {
                    put16(cursor + 2, entry.type)
                    put32(cursor + 4, entry.count)
                    if entry.value.count <= 4 {
                        output.replaceSubrange((cursor + 8)..<(cursor + 8 + entry.value.count), with: entry.value)
                    } else {
                        put32(cursor + 8, UInt32(valueArea))
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
}
