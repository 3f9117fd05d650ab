/// Walks the directories of one TIFF block (an EXIF block or a whole TIFF file) and reports
/// the absolute byte position of every entry and value, because redaction patches them in
/// place and libexif reports no positions.
///
/// Built to survive hostile input: every offset is checked against the block, a directory
/// is walked at most once (loops end), entry counts must fit in the block, sizes are
/// computed with overflow checks, and the number of directories and entries is capped, so
/// the work is bounded by the block size and the limits, never by what the file claims.
public struct TIFFWalker: Sendable {
    /// Caps on the work one walk may do.
    public struct Limits: Hashable, Sendable {
        public var maxDirectories: Int
        public var maxEntries: Int

        public init(maxDirectories: Int = 256, maxEntries: Int = 1 << 16) {
            self.maxDirectories = maxDirectories
            self.maxEntries = maxEntries
        }
    }

    public var limits: Limits

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// A walker that reads IFD0 alone (format sniffing, MPF indexes).
    public static let firstDirectoryOnly = TIFFWalker(limits: Limits(maxDirectories: 1))

    /// Whether `bytes` start with a classic TIFF header (`II*\0` or `MM\0*`).
    public static func isHeader(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A])
    }

    /// Walks `block` of `source`: the header, then IFD0 and the IFDs chained after it, and
    /// the EXIF, GPS, Interop and SubIFD directories they point to. Never throws: what
    /// cannot be walked becomes a `TIFFProblem`.
    public func walk(_ source: some ByteSource, block: ByteRange) -> TIFFLayout {
        var result = TIFFLayout(block: block, byteOrder: nil)
        guard block.offset >= 0, block.length >= 8, block.offset <= source.size &- block.length else {
            result.problems.append(.notTIFF)
            return result
        }
        let header: [UInt8]
        do {
            header = try source.read(at: block.offset, count: 8)
        } catch {
            result.problems.append(.readFailed(offset: block.offset))
            return result
        }
        guard header.count == 8 else {
            result.problems.append(.notTIFF)
            return result
        }
        let order: TIFFByteOrder
        switch (header[0], header[1]) {
        case (0x49, 0x49): order = .littleEndian
        case (0x4D, 0x4D): order = .bigEndian
        default:
            result.problems.append(.notTIFF)
            return result
        }
        guard order.uint16(header, at: 2) == 42, let ifd0 = order.uint32(header, at: 4) else {
            result.problems.append(.notTIFF)
            return result
        }
        result.byteOrder = order

        var walk = Walk(source: source, block: block, order: order, limits: limits)
        walk.pending.append((ifd0, .main(0)))
        walk.run()
        result.directories = walk.directories
        result.problems.append(contentsOf: walk.problems)
        return result
    }
}

extension TIFFWalker {
    /// Walks the one directory at `relative` in `block`, in a byte order known beforehand:
    /// a maker note's IFD, which has no TIFF header and counts offsets from the note's start.
    /// Nothing it points to is followed.
    public func walkDirectory(_ source: some ByteSource, block: ByteRange, order: TIFFByteOrder, at relative: UInt32) -> TIFFLayout {
        var result = TIFFLayout(block: block, byteOrder: order)
        var walk = Walk(source: source, block: block, order: order, limits: Limits(maxDirectories: 1, maxEntries: limits.maxEntries))
        walk.pending.append((relative, .main(0)))
        walk.run()
        result.directories = walk.directories
        result.problems.append(contentsOf: walk.problems)
        return result
    }
}

/// The state of one walk: a queue of directory pointers still to visit.
private struct Walk<Source: ByteSource> {
    let source: Source
    let block: ByteRange
    let order: TIFFByteOrder
    let limits: TIFFWalker.Limits
    var pending: [(UInt32, TIFFDirectoryKind)] = []
    /// Directories already walked, by relative offset, with the kind they were walked as.
    var visited: [UInt32: TIFFDirectoryKind] = [:]
    var directories: [TIFFDirectory] = []
    var problems: [TIFFProblem] = []
    var entryTotal = 0

    init(source: Source, block: ByteRange, order: TIFFByteOrder, limits: TIFFWalker.Limits) {
        self.source = source
        self.block = block
        self.order = order
        self.limits = limits
    }

    mutating func run() {
        var next = 0
        while next < pending.count {
            let (relative, kind) = pending[next]
            next += 1
            guard directories.count < limits.maxDirectories else {
                problems.append(.tooManyDirectories)
                return
            }
            visit(relative, kind)
            if entryTotal > limits.maxEntries {
                problems.append(.tooManyDirectories)
                return
            }
        }
    }

    /// Reads one directory and queues what it points to.
    mutating func visit(_ relative: UInt32, _ kind: TIFFDirectoryKind) {
        // Offsets are relative to the TIFF header; the count (2 bytes) must fit.
        guard Int64(relative) <= block.length - 2 else {
            problems.append(.directoryOutsideBlock(kind: kind, relativeOffset: relative))
            return
        }
        let absolute = block.offset + Int64(relative)
        if let earlier = visited[relative] {
            // A GPS pointer into a directory walked as something else would make a reader
            // see that directory's entries as GPS tags, and rewriting it as a GPS IFD would
            // break the other: only blanking the block is certain.
            problems.append(
                kind == .gps && earlier != .gps ? .gpsDirectoryShared(offset: absolute) : .directoryLoop(kind: kind, offset: absolute))
            return
        }
        visited[relative] = kind
        guard let countBytes = read(at: absolute, count: 2), let count16 = order.uint16(countBytes, at: 0) else { return }
        let count = Int(count16)
        // 2 (count) + 12 per entry must lie inside the block; the 4-byte next offset may be
        // cut off by the block's end (then there is no next directory to hide anything).
        let available = block.length - Int64(relative) - 2
        guard 12 * Int64(count) <= available else {
            problems.append(.directoryTruncated(kind: kind, offset: absolute, declaredCount: count))
            return
        }
        let hasNext = 12 * Int64(count) + 4 <= available
        if !hasNext { problems.append(.nextOffsetOutsideBlock(kind: kind, offset: absolute)) }
        guard let body = read(at: absolute + 2, count: 12 * count + (hasNext ? 4 : 0)) else { return }
        entryTotal += count

        var entries: [TIFFEntry] = []
        entries.reserveCapacity(count)
        for index in 0..<count {
            let at = index * 12
            guard let tag = order.uint16(body, at: at), let type = order.uint16(body, at: at + 2),
                let valueCount = order.uint32(body, at: at + 4), let field = order.uint32(body, at: at + 8)
            else { return }
            let entryOffset = absolute + 2 + Int64(at)
            let value = valueRange(kind: kind, tag: tag, type: type, count: valueCount, field: field, entryOffset: entryOffset)
            let entry = TIFFEntry(tag: tag, type: type, count: valueCount, entryOffset: entryOffset, value: value, valueField: field)
            entries.append(entry)
            queuePointers(of: entry, body: body, at: at)
        }
        let nextIFD = order.uint32(body, at: 12 * count)
        directories.append(TIFFDirectory(kind: kind, offset: absolute, entries: entries, nextIFD: nextIFD))

        // The main chain and SubIFD chains continue through the next-IFD offset; the
        // EXIF, GPS and Interop directories have no successors by the standard.
        if let nextIFD, nextIFD != 0 {
            switch kind {
            case .main(let index): enqueue((nextIFD, .main(index &+ 1)))
            case .sub: enqueue((nextIFD, .sub))
            case .exif, .gps, .interop: break
            }
        }
    }

    /// Where an entry's value bytes are, or nil (with a problem) when that is unknown.
    mutating func valueRange(kind: TIFFDirectoryKind, tag: UInt16, type: UInt16, count: UInt32, field: UInt32, entryOffset: Int64)
        -> ByteRange?
    {
        guard let size = tiffTypeSize(type) else {
            problems.append(.unknownType(kind: kind, tag: tag, type: type, entryOffset: entryOffset))
            return nil
        }
        // count ≤ 2^32-1 and size ≤ 8, so this fits in Int64; the check documents the bound.
        let (length, overflow) = Int64(count).multipliedReportingOverflow(by: Int64(size))
        guard !overflow else {
            problems.append(.valueOutsideBlock(kind: kind, tag: tag, entryOffset: entryOffset))
            return nil
        }
        if length <= 4 {
            return ByteRange(offset: entryOffset + 8, length: length)
        }
        guard Int64(field) <= block.length, length <= block.length - Int64(field) else {
            problems.append(.valueOutsideBlock(kind: kind, tag: tag, entryOffset: entryOffset))
            return nil
        }
        return ByteRange(offset: block.offset + Int64(field), length: length)
    }

    /// Queues the directories an entry points to (EXIF, GPS, Interop, SubIFDs).
    mutating func queuePointers(of entry: TIFFEntry, body: [UInt8], at: Int) {
        let kind: TIFFDirectoryKind
        switch entry.tag {
        case EXIFTag.exifIFD: kind = .exif
        case EXIFTag.gpsIFD: kind = .gps
        case EXIFTag.interopIFD: kind = .interop
        case EXIFTag.subIFDs: kind = .sub
        default: return
        }
        switch entry.type {
        case TIFFType.long.rawValue, TIFFType.ifd.rawValue:
            // A count of 0 holds no offset (exiftool reads it as empty): not followed.
            if entry.count == 0 {
                problems.append(.emptyPointer(tag: entry.tag, entryOffset: entry.entryOffset))
                return
            }
            if entry.count == 1 || kind != .sub {
                if entry.count > 1 {
                    problems.append(.pointerWrongType(tag: entry.tag, type: entry.type, entryOffset: entry.entryOffset))
                }
                enqueue((entry.valueField, kind))
                return
            }
            // Several SubIFD offsets, stored out of line; no more are read than could be queued.
            let wanted = min(entry.value?.length ?? 0, Int64(limits.maxDirectories) * 16)
            guard let value = entry.value, let offsets = read(at: value.offset, count: Int(wanted)) else { return }
            var index = 0
            while index + 4 <= offsets.count {
                if let offset = order.uint32(offsets, at: index) { enqueue((offset, kind)) }
                index += 4
            }
        case TIFFType.short.rawValue where entry.count == 1:
            // A 2-byte offset stored in the first half of the value field.
            if let offset = order.uint16(body, at: at + 8) { enqueue((UInt32(offset), kind)) }
        default:
            problems.append(.pointerWrongType(tag: entry.tag, type: entry.type, entryOffset: entry.entryOffset))
        }
    }

    /// Queues a directory pointer, up to a bound so a lying SubIFD count cannot grow the queue.
    mutating func enqueue(_ pointer: (UInt32, TIFFDirectoryKind)) {
        guard pending.count < limits.maxDirectories &* 4 else {
            if problems.last != .tooManyDirectories { problems.append(.tooManyDirectories) }
            return
        }
        pending.append(pointer)
    }

    /// Reads exactly `count` bytes or records a problem.
    mutating func read(at offset: Int64, count: Int) -> [UInt8]? {
        do {
            let bytes = try source.read(at: offset, count: count)
            if bytes.count == count { return bytes }
        } catch {}
        problems.append(.readFailed(offset: offset))
        return nil
    }
}
