/// Plans the patches that remove the GPS record of a FLIR thermal camera's FFF record,
/// which FLIR JPEGs carry in APP1 `FLIR\0` segments (the record split across them in
/// chunk-number order).
///
/// The FFF record starts with a 64-byte header (`FFF\0` or `AFF\0`, a version 100–199 that
/// tells the byte order, the offset and entry count of its record directory); each 32-byte
/// directory entry names a record by type, offset and length. The GPS record is type 0x2B.
/// Its directory entry's type becomes 0, which FFF defines as a free entry that readers
/// skip, and its data becomes zeros. Used the same way under `strip` and `coarse`.
///
/// Fails closed: chunks that do not form one complete stream, or a directory or GPS record
/// outside it, withhold the file.
struct FLIRLocationRedactor {
    enum Outcome: Equatable {
        case noLocation
        case redacted
        case uncertain(reason: String)
    }

    static let gpsRecord: UInt16 = 0x2B
    /// The most directory entries read; FLIR files have a few dozen.
    static let maxEntries = 4096

    func plan(_ chunks: [FLIRChunk], source: some ByteSource, into patches: inout PatchList) throws(ByteSourceError) -> Outcome {
        guard let stream = FLIRStream(chunks) else {
            return .uncertain(reason: "FLIR segments do not form one complete record")
        }
        guard stream.length >= 0x40 else { return .noLocation }
        let header = try stream.read(ByteRange(offset: 0, length: 0x40), from: source)
        let view = ByteView(header)
        guard view.matches("FFF\0", at: 0) || view.matches("AFF\0", at: 0) else { return .noLocation }
        var bigEndian = true
        guard let version = view.u32(0x14, bigEndian: true) else { return .noLocation }
        if !(100..<200).contains(version) {
            guard let swapped = view.u32(0x14, bigEndian: false), (100..<200).contains(swapped) else {
                // exiftool reads no records from such a stream; neither does anyone else.
                return .uncertain(reason: "FLIR record of an unknown version")
            }
            bigEndian = false
        }
        guard let position = view.u32(0x18, bigEndian: bigEndian), let count = view.u32(0x1C, bigEndian: bigEndian) else {
            return .noLocation
        }
        guard count <= Self.maxEntries, Int64(position) + Int64(count) * 32 <= stream.length else {
            return .uncertain(reason: "FLIR record directory lies outside the record")
        }
        let directory = try stream.read(ByteRange(offset: Int64(position), length: Int64(count) * 32), from: source)
        let entries = ByteView(directory)
        var removed = false
        for index in 0..<Int(count) {
            let entry = index * 32
            guard let type = entries.u16(entry, bigEndian: bigEndian), type == Self.gpsRecord,
                let offset = entries.u32(entry + 0x0C, bigEndian: bigEndian), let length = entries.u32(entry + 0x10, bigEndian: bigEndian)
            else { continue }
            let record = ByteRange(offset: Int64(offset), length: Int64(length))
            guard record.end <= stream.length else { return .uncertain(reason: "FLIR GPS record lies outside the record") }
            for piece in stream.fileRanges(ByteRange(offset: Int64(position) + Int64(entry), length: 2)) {
                patches.fill(piece, with: 0)
            }
            for piece in stream.fileRanges(record) { patches.fill(piece, with: 0) }
            removed = true
        }
        return removed ? .redacted : .noLocation
    }
}

/// The FLIR segments of one file joined into one logical stream, in chunk-number order.
struct FLIRStream {
    /// Each chunk's data, in stream order, with its stream offset.
    private var pieces: [(start: Int64, data: ByteRange)] = []
    private(set) var length: Int64 = 0

    /// Nil unless the chunks agree on their total and hold every number below it once.
    init?(_ chunks: [FLIRChunk]) {
        guard let total = chunks.first?.total, chunks.allSatisfy({ $0.total == total }), chunks.count == total,
            Set(chunks.map(\.number)) == Set(0..<total)
        else { return nil }
        for chunk in chunks.sorted(by: { $0.number < $1.number }) {
            pieces.append((length, chunk.data))
            length += chunk.data.length
        }
    }

    /// The file ranges holding `range` of the stream.
    func fileRanges(_ range: ByteRange) -> [ByteRange] {
        var result: [ByteRange] = []
        for piece in pieces {
            let start = max(range.offset, piece.start)
            let end = min(range.end, piece.start + piece.data.length)
            if start < end { result.append(ByteRange(offset: piece.data.offset + start - piece.start, length: end - start)) }
        }
        return result
    }

    /// Reads `range` of the stream (kept small by the caller).
    func read(_ range: ByteRange, from source: some ByteSource) throws(ByteSourceError) -> [UInt8] {
        var bytes: [UInt8] = []
        for piece in fileRanges(range) { bytes += try RedactionPlanner.read(piece, from: source) }
        return bytes
    }
}
