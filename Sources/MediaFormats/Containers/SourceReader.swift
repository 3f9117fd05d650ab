/// Non-throwing, bounded reads over a `ByteSource` for the walkers.
///
/// A read that fails or comes back short answers nil: the walkers treat it as "the
/// structure is not there" and record a problem, they never trap.
struct SourceReader {
    let source: any ByteSource
    let size: Int64

    /// The largest single read a walker makes; larger metadata structures are refused.
    static let maxRead = 16 << 20

    init(_ source: any ByteSource) {
        self.source = source
        self.size = max(0, source.size)
    }

    /// Exactly `count` bytes at `offset`, or nil.
    func bytes(at offset: Int64, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0, count <= Self.maxRead, offset <= size, Int64(count) <= size - offset else { return nil }
        guard let data = try? source.read(at: offset, count: count), data.count == count else { return nil }
        return data
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file); empty when out of range.
    func prefix(at offset: Int64, count: Int) -> [UInt8] {
        guard offset >= 0, offset < size, count > 0 else { return [] }
        let available = min(Int64(min(count, Self.maxRead)), size - offset)
        guard let data = try? source.read(at: offset, count: Int(available)) else { return [] }
        return data
    }

    /// The bytes of `range` as a view, or nil when the range is not wholly readable.
    func view(_ range: ByteRange) -> ByteView? {
        guard range.length >= 0, range.length <= Int64(Self.maxRead) else { return nil }
        return bytes(at: range.offset, count: Int(range.length)).map(ByteView.init)
    }
}

extension ContainerLayout {
    /// Notes something the walker could not read with certainty; `structural` marks the
    /// container as not parsed to its end (redaction then withholds the file).
    mutating func note(_ problem: String, structural: Bool) {
        if problems.count < 64 { problems.append(problem) }
        if structural { isComplete = false }
    }
}
