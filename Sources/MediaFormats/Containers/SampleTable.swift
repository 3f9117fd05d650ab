/// Where the samples of one MP4/MOV track lie in the file, from its sample table (`stbl`):
/// sizes from `stsz` or `stz2`, the chunk each sample is in from `stsc`, chunk offsets from
/// `stco` or `co64`. Used for timed-metadata tracks (GoPro `gpmd`) whose samples carry GPS.
///
/// Every count and offset comes from the file, so everything is bounded and checked: a
/// table that does not add up (samples left over or missing, a sample past the end of the
/// file, an overflowing offset) is an error, never a guess.
struct SampleTable {
    /// The most samples one track may have here (a GoPro track has about one per second).
    static let maxSamples = 2_000_000

    /// Why a sample table could not be read.
    enum Failure: Error, Equatable {
        case missing(String)
        case unreadable(String)
        case inconsistent(String)
    }

    /// The byte ranges of every sample of the table whose children are `boxes`, in file order of
    /// the chunks. Sizes of zero give empty ranges (no bytes to look at).
    static func samples(in boxes: [BMFFBox], reader: SourceReader) -> Result<[ByteRange], Failure> {
        func box(_ type: String) -> BMFFBox? { boxes.first { $0.type == fourCCValue(type) } }
        guard let sizeBox = box("stsz") ?? box("stz2") else { return .failure(.missing("stsz")) }
        guard let chunkMap = box("stsc") else { return .failure(.missing("stsc")) }
        guard let offsetBox = box("stco") ?? box("co64") else { return .failure(.missing("stco")) }
        let sizes: [Int64]
        switch self.sizes(sizeBox, reader: reader) {
        case .success(let found): sizes = found
        case .failure(let why): return .failure(why)
        }
        let offsets: [Int64]
        switch chunkOffsets(offsetBox, reader: reader) {
        case .success(let found): offsets = found
        case .failure(let why): return .failure(why)
        }
        guard let map = reader.view(chunkMap.payload), let count = map.u32(4), Int64(count) * 12 + 8 <= Int64(map.count) else {
            return .failure(.unreadable("stsc"))
        }
        var result: [ByteRange] = []
        result.reserveCapacity(sizes.count)
        var sample = 0
        for entry in 0..<Int(count) {
            guard let first = map.u32(8 + entry * 12), let perChunk = map.u32(12 + entry * 12), first >= 1 else {
                return .failure(.inconsistent("stsc entry \(entry)"))
            }
            let next = entry + 1 < Int(count) ? Int(map.u32(8 + (entry + 1) * 12) ?? 0) : offsets.count + 1
            guard Int(first) <= next, next <= offsets.count + 1 else { return .failure(.inconsistent("stsc chunk order")) }
            for chunk in (Int(first) - 1)..<(next - 1) {
                var position = offsets[chunk]
                for _ in 0..<perChunk {
                    guard sample < sizes.count else { return .failure(.inconsistent("stsc names more samples than stsz")) }
                    let length = sizes[sample]
                    guard position >= 0, length <= reader.size, position <= reader.size - length else {
                        return .failure(.inconsistent("sample \(sample) lies outside the file"))
                    }
                    result.append(ByteRange(offset: position, length: length))
                    position += length
                    sample += 1
                }
            }
        }
        guard sample == sizes.count else { return .failure(.inconsistent("stsc places \(sample) of \(sizes.count) samples")) }
        return .success(result)
    }

    /// `stsz` (one size for all, or one 32-bit size each) or `stz2` (4, 8 or 16-bit sizes).
    private static func sizes(_ box: BMFFBox, reader: SourceReader) -> Result<[Int64], Failure> {
        let compact = box.type == fourCCValue("stz2")
        guard let head = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 12))), head.count == 12,
            let count = head.u32(8), count <= Self.maxSamples
        else { return .failure(.unreadable(box.name)) }
        if !compact, let common = head.u32(4), common != 0 {
            return .success([Int64](repeating: Int64(common), count: Int(count)))
        }
        let fieldBits = compact ? Int(head.u8(7) ?? 0) : 32
        guard [4, 8, 16, 32].contains(fieldBits) else { return .failure(.unreadable("\(box.name) field size \(fieldBits)")) }
        let tableBytes = (Int64(count) * Int64(fieldBits) + 7) / 8
        guard tableBytes <= box.payload.length - 12,
            let table = reader.view(ByteRange(offset: box.payload.offset + 12, length: tableBytes))
        else { return .failure(.unreadable(box.name)) }
        var sizes: [Int64] = []
        sizes.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let value: UInt32?
            switch fieldBits {
            case 4: value = table.u8(index / 2).map { UInt32(index % 2 == 0 ? $0 >> 4 : $0 & 0x0F) }
            case 8: value = table.u8(index).map(UInt32.init)
            case 16: value = table.u16(index * 2).map(UInt32.init)
            default: value = table.u32(index * 4)
            }
            guard let value else { return .failure(.unreadable(box.name)) }
            sizes.append(Int64(value))
        }
        return .success(sizes)
    }

    /// `stco` (32-bit) or `co64` (64-bit) chunk offsets.
    private static func chunkOffsets(_ box: BMFFBox, reader: SourceReader) -> Result<[Int64], Failure> {
        let wide = box.type == fourCCValue("co64")
        let width: Int64 = wide ? 8 : 4
        guard let head = reader.view(ByteRange(offset: box.payload.offset, length: min(box.payload.length, 8))), head.count == 8,
            let count = head.u32(4), count <= Self.maxSamples, Int64(count) * width <= box.payload.length - 8,
            let table = reader.view(ByteRange(offset: box.payload.offset + 8, length: Int64(count) * width))
        else { return .failure(.unreadable(box.name)) }
        var offsets: [Int64] = []
        offsets.reserveCapacity(Int(count))
        for index in 0..<Int(count) {
            let value = wide ? table.u64(index * 8) : table.u32(index * 4).map(UInt64.init)
            guard let value, value <= UInt64(Int64.max) else { return .failure(.unreadable(box.name)) }
            offsets.append(Int64(value))
        }
        return .success(offsets)
    }
}
